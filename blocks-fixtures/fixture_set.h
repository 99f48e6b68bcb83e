// The native fixture loader: finds the fixture blocks (../shared/blocks-fixtures, never copied
// into the repo) and loads them, checking each file against the manifest's SHA-256, by the same
// rules as blocks-fixtures/loader.mjs (the Node loader) and manifest-entry.mjs (one entry's
// shape). Used by the native tests (tests/native), the Google Benchmark suite and its tools
// (bench/native) and the fuzz seed writer (fuzz/seed_corpus.cpp). One bad block is reported as
// that block's error; the others still load.
//
// Manifest (blocks-fixtures/manifest.json, or <fixtures>/manifest.json when the fixture set
// carries its own, as a test's temporary copy does): { "blocks": [ { "height": <int >= 0>,
// "hash": "<64 hex>", "dir": "mainnet/<height>", "block_raw_sha256": "<64 hex>",
// "spent_outputs_sha256": "<64 hex>", "inputs": <int >= 0> }, ... ] }; SHA-256 of the file bytes,
// lowercase hex. A block folder holds block.raw (network serialization) and spent_outputs.json.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ibd::fixtures {

/** The fixtures folder, as an absolute path without a trailing slash. Precedence as
 *  loader.mjs fixturesDir: `override_dir` (a tool's flag) when non-empty, then $IBD_FIXTURES
 *  when set and non-empty, then ../shared/blocks-fixtures beside the repository (fixed at build
 *  time, blocks-fixtures/CMakeLists.txt). Relative paths are taken from the working directory.
 *  Does not check that the folder exists (LoadFixtureFiles does). */
std::string FixturesDir(const std::string& override_dir = "");

/** The manifest that describes `dir`: `<dir>/manifest.json` when present, else, for the default
 *  folder only (FixturesDir("")), the repo's blocks-fixtures/manifest.json (its absolute path is
 *  fixed at build time). The same rule as loader.mjs manifestPathOf. Throws std::runtime_error
 *  naming `dir` when it does not exist, else naming what is missing and the make-manifest.mjs
 *  command that makes it. */
std::string ManifestPath(const std::string& dir);

/** One manifest entry and, once loaded, its two files. */
struct FixtureFiles {
    int32_t height = -1;    // -1 when the entry has no valid height
    std::string hash;       // block hash, display hex (the manifest's)
    std::string dir;        // absolute block folder; empty for a malformed entry
    int64_t inputs = -1;    // non-coinbase inputs, as the manifest counts them
    std::vector<uint8_t> block_raw;   // block.raw, its SHA-256 checked
    std::string spent_outputs_json;   // spent_outputs.json (text), its SHA-256 checked
    /** Empty when both files loaded and matched the manifest; otherwise one line naming what is
     *  wrong and where, the same text loader.mjs gives:
     *    "<manifest>: manifest entry <i> (height <h>): <field> is not 64 lowercase hex digits"
     *      (and the other manifest-entry.mjs problems; "... repeats height <h>")
     *    "height <h> is not listed in the fixture manifest <manifest>"
     *    "fixture folder <dir> is missing"
     *    "cannot open <file> (at file <file>)" and the other ReadFileBytes errors
     *    "<file>: sha256 <actual> does not match the manifest's <expected> (<n> bytes; file
     *     changed or truncated)"
     *  and the files are left empty. */
    std::string error;
};

/** Loads the fixture blocks of `dir` (see FixturesDir), in manifest order, every sound entry's
 *  block.raw and spent_outputs.json read whole and checked against the manifest's SHA-256
 *  (crypto/sha256.h) before they are returned. Malformed or repeated entries come first, as
 *  error entries. With `heights` non-empty: only those heights, in the given order (malformed
 *  entries left out), a height the manifest does not list becoming an error entry.
 *  Never throws for one block's problem. Throws std::runtime_error naming the folder when `dir`
 *  is not a directory ("fixtures folder <dir> not found: set IBD_FIXTURES=DIR or place the
 *  fixtures at ../shared/blocks-fixtures beside the repository"), holds neither manifest.json
 *  nor mainnet/ ("no fixture blocks found in <dir>: expected ..."), or has no manifest of its own
 *  and is not the default folder (ManifestPath), or naming the manifest when it
 *  is unreadable or not JSON ("cannot read fixture manifest <path>: ..."), has no "blocks" array
 *  or lists no blocks. Unlike loader.mjs it does not throw when no block loads: the callers
 *  report each block's error. */
std::vector<FixtureFiles> LoadFixtureFiles(const std::string& dir, const std::vector<int32_t>& heights = {});

/** The files of fixture block `height` of `dir`: LoadFixtureFiles(dir, {height}), with the
 *  block's error thrown as std::runtime_error. For tests and tools that need one known block. */
FixtureFiles LoadFixtureBlockFiles(const std::string& dir, int32_t height);

/** The fixture set's consecutive chain: the manifest's "chain" entry ({ "file":
 *  "mainnet-chain/btcd-blocks1-255.dat", "sha256", "first_height", "blocks", "prev_hash",
 *  "last_hash" }, written by make-manifest.mjs; checked as manifest-entry.mjs chainEntryProblem)
 *  and the file, its SHA-256 checked. The framed layout: primitives/block_file.h. */
struct ChainFile {
    std::string path;          // absolute path of the file
    int32_t first_height = 0;  // height of its first block
    int64_t blocks = 0;        // blocks it holds, as the manifest counts them
    std::string prev_hash;     // the hash its first block links to (display hex)
    std::string last_hash;     // its last block's hash
    std::vector<uint8_t> bytes;
};

/** Loads the chain of `dir` (FixturesDir, the same folder and manifest rules as
 *  LoadFixtureFiles; loader.mjs loadChain is its Node twin). Throws std::runtime_error naming
 *  the manifest or the file when the manifest cannot be read, has no "chain" entry ("fixture
 *  manifest <path> lists no chain"), the entry is malformed ("<path>: manifest chain: <field>
 *  ..."), or the file is missing, unreadable or does not match its SHA-256 (the same text as a
 *  block's). */
ChainFile LoadChainFile(const std::string& dir);

}  // namespace ibd::fixtures
