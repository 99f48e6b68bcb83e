// Whole-block validation, one fixture block per benchmark: BM_ValidateBlock/<height>.
//
// One iteration = ValidateBlock (native/validation/block_validation.h) on this thread: parse the block, recompute its hash
// and merkle roots, CheckBlock, match the spent outputs, run every input through the
// interpreter with its sighashes, and verify each round's pending checks with VerifyBatch
// (single-threaded, as Core's script check queue with one thread). Rates: items_per_second =
// final signature checks/s, inputs_per_second, bytes_per_second = block bytes/s. Not measured:
// reading the files and parsing spent_outputs.json (done once beforehand), the UTXO set
// lookups Core performs instead, proof of work and the other contextual checks ValidateBlock
// does not make (block.h CheckBlock).
#include <memory>
#include <string>

#include <benchmark/benchmark.h>

#include "benchmarks.h"

namespace ibd::bench {

void RegisterBlockBenchmarks(const std::vector<FixtureBlock>& blocks) {
    for (const FixtureBlock& b : blocks) {
        const std::string name = "BM_ValidateBlock/" + std::to_string(b.height);
        const FixtureBlock* block = &b;  // the caller keeps `blocks` alive while benchmarks run
        benchmark::RegisterBenchmark(name.c_str(), [block](benchmark::State& state) {
            if (!block->error.empty()) {
                state.SkipWithError(block->error.c_str());
                return;
            }
            for (auto _ : state) {
                benchmark::DoNotOptimize(ValidateBlock(block->raw.data(), block->raw.size(), block->spent,
                                                       block->hash, block->height));
            }
            const int64_t n = state.iterations();
            state.SetItemsProcessed(n * static_cast<int64_t>(block->validation.origins.size()));
            state.SetBytesProcessed(n * static_cast<int64_t>(block->raw.size()));
            state.counters["inputs_per_second"] =
                benchmark::Counter(static_cast<double>(n) * block->validation.inputs, benchmark::Counter::kIsRate);
            state.SetLabel(std::to_string(block->validation.origins.size()) + " checks, " +
                           std::to_string(block->validation.inputs) + " inputs");
        });
    }
}

}  // namespace ibd::bench
