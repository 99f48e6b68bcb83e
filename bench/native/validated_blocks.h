// The fixture blocks the native benchmarks run on: loaded, and checked against the manifest's
// SHA-256, by the native fixture loader (blocks-fixtures/fixture_set.h), then each validated once
// by the engine (ValidateBlock, native/validation/block_validation.h) so that every benchmark
// works on real mainnet data: the blocks' own inputs and their final signature checks.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "validation/block_validation.h"
#include "validation/spent_outputs.h"

namespace ibd::bench {

/** One fixture block (mainnet/<height>/ in the fixtures folder). */
struct FixtureBlock {
    int32_t height = 0;
    std::string hash;   // display hex, from the manifest
    std::string dir;    // absolute folder holding block.raw and spent_outputs.json
    std::vector<uint8_t> raw;                // block.raw
    std::vector<SpentOutputEntry> spent;     // spent_outputs.json, parsed
    /** Empty when the block loaded, matched the manifest and validated as valid; otherwise why
     *  not (the loader's error, naming the manifest entry, folder or file and a SHA-256
     *  mismatch, or an ibd::Error's what(): file, block, tx, input, byte), and the block is left
     *  out of every benchmark. */
    std::string error;
    /** ValidateBlock's result: final checks (packed, check_buffer.h) with their verdicts. */
    BlockValidationResult validation;
};

/** Loads every block the manifest of `dir` lists (fixtures::LoadFixtureFiles), in its order,
 *  and validates each. A block that cannot be read, does not match the manifest, or cannot be
 *  parsed or validated keeps its `error`; the others still load. Throws std::runtime_error as
 *  LoadFixtureFiles does: naming the folder when `dir` does not exist, or the manifest when it
 *  is unreadable or lists no blocks. */
std::vector<FixtureBlock> LoadFixtureBlocks(const std::string& dir);

}  // namespace ibd::bench
