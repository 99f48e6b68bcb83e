// The legacy sighash's quadratic cost (issue 12, part 6), native side:
//
//   BM_Sha256/<bytes>                     the engine's SHA-256 (crypto/sha256.h) of one message of
//                                         64 bytes or 1,000,000 bytes: bytes_per_second is the
//                                         per-byte rate `npm run bench:quadratic` sets against wasm
//   BM_ValidateSynthetic/legacy_<n>in     ValidateBlock (one thread, synchronous verification) of
//                                         the SYNTHETIC stress block: one ~1 MB legacy transaction
//                                         with n = 5,000 signed P2PKH inputs
//                                         (blocks-fixtures/derived/synthetic_legacy_tx.h), never a
//                                         fixture block; counters: sighash_share (the engine's
//                                         StageTimes), items_per_second = inputs/s
//
// The synthetic block is generated on the benchmark's first run (seconds: every input's
// sighash is computed to sign it), not at registration, so a --benchmark_filter that leaves it
// out does not pay for it. Block 57,043 is BM_ValidateBlock/57043 (block_bench.cpp).
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "benchmarks.h"
#include "crypto/sha256.h"
#include "derived/synthetic_legacy_tx.h"
#include "validation/block_validation.h"

namespace ibd::bench {

namespace {

const test::SyntheticLegacyBlock& SyntheticBlock() {
    static const test::SyntheticLegacyBlock block = test::MakeSyntheticLegacyBlock(test::SyntheticLegacyParams{});
    return block;
}

}  // namespace

void RegisterQuadraticBenchmarks() {
    for (size_t bytes : {size_t{64}, size_t{1000000}}) {
        const std::string name = "BM_Sha256/" + std::to_string(bytes);
        benchmark::RegisterBenchmark(name.c_str(), [bytes](benchmark::State& state) {
            std::vector<uint8_t> buf(bytes);
            for (size_t i = 0; i < buf.size(); ++i) buf[i] = static_cast<uint8_t>(i * 131 + 7);
            for (auto _ : state) {
                const Hash32 d = Sha256Hash(buf.data(), buf.size());
                buf[0] = d[0];  // each message depends on the last digest
            }
            state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(bytes));
        });
    }
    const test::SyntheticLegacyParams params;
    const std::string name = "BM_ValidateSynthetic/legacy_" + std::to_string(params.inputs) + "in";
    benchmark::RegisterBenchmark(name.c_str(), [](benchmark::State& state) {
        const test::SyntheticLegacyBlock& s = SyntheticBlock();
        ChainContext context;
        context.skip_proof_of_work = true;  // the synthetic header has no real proof of work
        ValidationOptions options;
        options.verify = VerifyMode::kSynchronous;
        int64_t sighash_ns = 0, total_ns = 0;
        uint32_t inputs = 0;
        for (auto _ : state) {
            const BlockValidationResult r =
                ValidateBlock(s.block.data(), s.block.size(), s.spent, s.hash_hex, s.height, context, options);
            if (!r.valid) {
                state.SkipWithError(("the synthetic block is not valid: " + r.error).c_str());
                return;
            }
            sighash_ns += r.times.sighash_ns;
            total_ns += r.times.parse_ns + r.times.sighash_ns + r.times.script_ns + r.times.verify_ns;
            inputs = r.inputs;
        }
        state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(inputs));
        state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(s.block.size()));
        state.counters["sighash_share"] = total_ns > 0 ? static_cast<double>(sighash_ns) / total_ns : 0;
        state.SetLabel("SYNTHETIC: " + std::to_string(s.tx_bytes) + "-byte legacy tx, " + std::to_string(inputs) +
                       " inputs");
    });
}

}  // namespace ibd::bench
