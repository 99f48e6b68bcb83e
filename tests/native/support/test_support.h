// Shared helpers of the native test suites: where the fixtures are, the fixture blocks through
// the native fixture loader, file reading, and the Error a bad block gives.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "util/error.h"
#include "validation/block_validation.h"
#include "validation/spent_outputs.h"

namespace ibd::test {

/** The blocks-fixtures folder (fixtures::FixturesDir, blocks-fixtures/fixture_set.h):
 *  $IBD_FIXTURES when set and non-empty, else ../shared/blocks-fixtures beside the repo.
 *  Absolute, no trailing slash. */
std::string FixturesDir();

/** FixturesDir() + "/" + relative. */
std::string FixturePath(const std::string& relative);

/** Fixture block mainnet/<height>, as the suites use it. */
struct FixtureBlock {
    std::vector<uint8_t> raw;              // block.raw
    std::vector<SpentOutputEntry> spent;   // spent_outputs.json, parsed
    std::string hash;                      // display hex, the manifest's
    int32_t height = 0;
};

/** Fixture block `height` through the native fixture loader (fixtures::LoadFixtureBlockFiles):
 *  both files checked against the manifest's SHA-256, then the spent outputs parsed. Throws
 *  std::runtime_error naming the manifest, folder or file when the block is not listed, a file
 *  is missing or does not match; ibd::Error when its spent_outputs.json does not parse. */
FixtureBlock LoadFixtureBlock(int32_t height);

/** The fixture set's consecutive chain (fixtures::LoadChainFile: the manifest's chain entry,
 *  mainnet-chain/btcd-blocks1-255.dat, its SHA-256 checked), as the suites use it. */
struct FixtureChain {
    std::vector<uint8_t> file;                 // the framed file (primitives/block_file.h)
    std::vector<std::vector<uint8_t>> blocks;  // each block's bytes, in file order
    int32_t first_height = 0;                  // height of blocks[0]
    std::string last_hash;                     // the manifest's hash of the last block
};

/** Loads the chain and splits it into blocks (ReadBlockFile). Throws std::runtime_error as
 *  LoadChainFile, or naming the bad frame. */
FixtureChain LoadFixtureChain();

/** Whole file as bytes (fixtures::ReadFileBytes) / text. Throw ibd::Error (a
 *  std::runtime_error) naming the path when it cannot be read. For fixture files the manifest
 *  does not list (vectors/, mainnet-chain/, index.json). */
std::vector<uint8_t> ReadFileBytes(const std::string& path);
std::string ReadFile(const std::string& path);

/** ReadFile + nlohmann::json::parse. */
nlohmann::json ReadJsonFile(const std::string& path);

/** The ChainContext of a block mutated from a real one: proof of work skipped
 *  (ChainContext::skip_proof_of_work), since the mutation breaks it. For tests whose point is
 *  another rule. */
ChainContext MutatedBlockContext(ChainContext context = {});

/** Runs ValidateBlock (BlockValidation to the end; MutatedBlockContext: `raw` is usually a
 *  mutated block) and returns its Error (a gtest failure, and a
 *  placeholder Error, if there is none). */
Error ValidationError(const std::vector<uint8_t>& raw, const std::vector<SpentOutputEntry>& spent,
                      const std::string& hash, int32_t height);

}  // namespace ibd::test

namespace ibd {
// The suites live in namespace ibd and call these unqualified.
using test::FixtureBlock;
using test::FixtureChain;
using test::LoadFixtureChain;
using test::FixturePath;
using test::FixturesDir;
using test::LoadFixtureBlock;
using test::MutatedBlockContext;
using test::ReadFile;
using test::ReadFileBytes;
using test::ReadJsonFile;
using test::ValidationError;
}  // namespace ibd
