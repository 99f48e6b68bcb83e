// ibd_native_bench: the native anchor benchmarks (Google Benchmark), on the fixture blocks.
//
//   ibd_native_bench [--benchmark_filter=REGEX] [--benchmark_min_time=SECONDS] [--benchmark_format=json] ...
//
// What Bitcoin Core's code path costs on this machine, one core: libsecp256k1 verify per
// signature (direct and through the batch shim), sighash per input type, whole-block
// validation (verify_bench.cpp, sighash_bench.cpp, block_bench.cpp), SHA-256 per byte and the
// SYNTHETIC legacy stress block (quadratic_bench.cpp). Every figure is measured on
// the fixture blocks' own inputs and final signature checks, found by the engine's
// ValidateBlock when the program starts (a second or two, not timed). Fixtures: $IBD_FIXTURES,
// else ../shared/blocks-fixtures beside the repository, each file checked against the
// manifest's SHA-256 (blocks-fixtures/fixture_set.h).
// Exit status: 0 all ran; 1 the fixtures folder or manifest is missing or unreadable, a sample
// disagrees with the engine, or a block failed to load or did not match the manifest (its
// BM_ValidateBlock row shows the error, the other benchmarks still run); 2 an unknown
// command-line argument.
#include <exception>
#include <iostream>
#include <vector>

#include <benchmark/benchmark.h>

#include "benchmarks.h"
#include "fixture_set.h"
#include "validated_blocks.h"

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;

    const std::string dir = ibd::fixtures::FixturesDir();
    std::vector<ibd::bench::FixtureBlock> blocks;
    size_t failed = 0, checks = 0;
    try {
        blocks = ibd::bench::LoadFixtureBlocks(dir);
        for (const auto& b : blocks) {
            if (!b.error.empty()) {
                ++failed;
                std::cerr << "ibd_native_bench: block " << b.height << " left out: " << b.error << "\n";
            }
            checks += b.validation.origins.size();
        }
        ibd::bench::RegisterVerifyBenchmarks(blocks);
        ibd::bench::RegisterSighashBenchmarks(blocks);
        ibd::bench::RegisterBlockBenchmarks(blocks);
        ibd::bench::RegisterQuadraticBenchmarks();
    } catch (const std::exception& e) {
        std::cerr << "ibd_native_bench: " << e.what() << "\n";
        return 1;
    }
    benchmark::AddCustomContext("fixtures", dir);
    benchmark::AddCustomContext("fixture_blocks", std::to_string(blocks.size() - failed) + " of " +
                                                      std::to_string(blocks.size()) + " loaded, " +
                                                      std::to_string(checks) + " final checks");
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return failed == 0 ? 0 : 1;
}
