// The fixture blocks the native benchmarks run on: found and listed as blocks-fixtures/loader.mjs
// does, each loaded and validated once by the engine (ValidateBlock, native/validation/block_validation.h) so that every
// benchmark works on real mainnet data: the blocks' own inputs and their final signature checks.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "validation/block_validation.h"

namespace ibd::bench {

/** One fixture block (mainnet/<height>/ in the fixtures folder). */
struct FixtureBlock {
    int32_t height = 0;
    std::string hash;   // display hex, from the manifest
    std::string dir;    // absolute folder holding block.raw and spent_outputs.json
    std::vector<uint8_t> raw;                // block.raw
    std::vector<SpentOutputEntry> spent;     // spent_outputs.json, parsed
    /** Empty when the block loaded and validated as valid; otherwise why not (an ibd::Error's
     *  what(): file, block, tx, input, byte), and the block is left out of every benchmark. */
    std::string error;
    /** ValidateBlock's result: final checks (packed, check_buffer.h) with their verdicts. */
    BlockValidationResult validation;
};

/** The fixtures folder: $IBD_FIXTURES when set and non-empty, else ../shared/blocks-fixtures
 *  beside the repository (fixed at build time). No trailing slash. */
std::string FixturesDir();

/** Reads the manifest (<dir>/manifest.json when present, else the repo's
 *  blocks-fixtures/manifest.json) and loads and validates every block it lists, in its order.
 *  A block that cannot be read, parsed or validated keeps its `error`; the others still load.
 *  Throws std::runtime_error naming the folder when `dir` does not exist, or naming the manifest
 *  (and entry index) when it is unreadable, lists no blocks or has an entry without an integer
 *  `height`, string `hash` and string `dir`. */
std::vector<FixtureBlock> LoadFixtureBlocks(const std::string& dir);

}  // namespace ibd::bench
