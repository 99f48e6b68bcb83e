// ibd_fuzz_seeds <block_parser_fuzz|script_eval_fuzz> <corpus_dir>
//
// Writes the seed corpus of one libFuzzer target (fuzz/*_fuzz.cpp) from the fixtures, with the
// engine's own parsers: the fixture blocks through the native fixture loader (every file checked
// against the manifest's SHA-256, blocks-fixtures/fixture_set.h) and ParseBlock, Core's script
// test vectors through ParseScriptAsm / ParseScriptFlags (script/script_asm.h). Removes the
// corpus folder's earlier seed-* files first (the inputs libFuzzer added stay), then writes each
// seed as <corpus_dir>/seed-<name>, in the layout documented at the top of the target's source.
// Run by scripts/fuzz.mjs; built with the native build (build/native/fuzz/ibd_fuzz_seeds).
//
//   block_parser_fuzz  per fixture block: json-<h> (mode 3, its spent_outputs.json, when at most
//                      4 KiB); block-<h> (block mode, the whole block, when at most 4 KiB), else
//                      for each transaction of at most 8 KiB whose inputs show a (script type,
//                      witness items up to 4, scriptSig or not) not seen before in the block, up
//                      to 16 per block: block-<h>-tx<t> (header + coinbase + that transaction,
//                      verdict source cycling through the four) and tx-<h>-tx<t> (mode 2); every
//                      hex transaction of Core's tx_valid.json / tx_invalid.json as
//                      tx-tx_valid-<i> / tx-tx_invalid-<i>; json-empty.
//   script_eval_fuzz   every row of Core's script_tests.json whose scripts and flags parse:
//                      core-<i> (VerifyScript with its witness), and for every 4th row also
//                      core-<i>-eval (EvalScript of the scriptPubKey on the witness items); from
//                      btcd's taproot_script_assets.json, at most 2 entries per comment:
//                      taproot-<i>-ok / taproot-<i>-bad (its success / failure spend).
//
// Fixtures: $IBD_FIXTURES, else ../shared/blocks-fixtures beside the repo. A missing fixtures
// folder or vector file writes no seeds from it (a warning on stderr): the target starts from
// what the corpus already holds.
// Prints one line on stdout: "<count> seeds written to <corpus_dir>".
// Exit status: 0 done; 1 a fixture block that does not load (e.g. its SHA-256 does not match
// the manifest: the loader's message on stderr), a vector file that does not parse, or a
// corpus folder that cannot be written; 2 bad command line.
#include <algorithm>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "file_bytes.h"
#include "fixture_set.h"
#include "primitives/block.h"
#include "primitives/hex.h"
#include "primitives/serialize.h"
#include "script/script_asm.h"
#include "script/script_type.h"
#include "validation/spent_outputs.h"

namespace ibd::fuzz {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using Bytes = std::vector<uint8_t>;

constexpr size_t kFullBlockMax = 4 * 1024;  // fixture blocks up to this size are seeds as they are
constexpr size_t kPickTxMax = 8 * 1024;     // larger ones give coinbase + one small tx per new input shape
constexpr int kPicksPerBlock = 16;

/** Writes seed-<name> files into one corpus folder and counts them. */
class SeedWriter {
public:
    explicit SeedWriter(fs::path dir) : dir_(std::move(dir)) {
        fs::create_directories(dir_);
        for (const fs::directory_entry& e : fs::directory_iterator(dir_)) {
            if (e.path().filename().string().rfind("seed-", 0) == 0) fs::remove(e.path());
        }
    }
    void Add(const std::string& name, const Bytes& bytes) {
        const fs::path file = dir_ / ("seed-" + name);
        std::ofstream out(file, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
        if (!out) throw std::runtime_error("cannot write " + file.string());
        ++count_;
    }
    size_t count() const { return count_; }

private:
    fs::path dir_;
    size_t count_ = 0;
};

void Append(Bytes& out, const uint8_t* data, size_t len) { out.insert(out.end(), data, data + len); }
void Append(Bytes& out, const Bytes& more) { out.insert(out.end(), more.begin(), more.end()); }

/** A vector file of the fixtures, parsed; null (with a warning) when the file is absent. */
json ReadVectors(const std::string& path) {
    std::error_code ec;
    if (!fs::exists(path, ec)) {
        std::cerr << "ibd_fuzz_seeds: warning: " << path << " not found; no seeds from it\n";
        return nullptr;
    }
    const Bytes bytes = fixtures::ReadFileBytes(path);
    try {
        return json::parse(bytes.begin(), bytes.end());
    } catch (const std::exception& e) {
        throw std::runtime_error(path + ": " + e.what());
    }
}

// ---------------------------------------------------------------------------------------------
// block_parser_fuzz (layout at the top of fuzz/block_parser_fuzz.cpp)

/** One spent entry: value int64 LE, vout uint32 LE, txid internal byte order, script length
 *  uint16 LE, script. */
void AppendSpentEntry(Bytes& out, const SpentOutputEntry& e) {
    VectorSink s{out};
    WriteLE64(s, static_cast<uint64_t>(e.out.value));
    WriteLE32(s, e.prevout.n);
    Append(out, e.prevout.txid.data(), e.prevout.txid.size());
    WriteLE16(s, static_cast<uint16_t>(e.out.script_pubkey.size()));
    Append(out, e.out.script_pubkey);
}

/** Block-mode seed: fix-up, matching outpoints and expected hash all on (options 0x1c), with
 *  verdict source `verdicts` (options bits 6-7). */
Bytes BlockSeed(int32_t height, const Bytes& block, const SpentOutputEntry* spent, size_t n, int verdicts) {
    Bytes out{static_cast<uint8_t>(0x1c | (verdicts << 6))};
    VectorSink s{out};
    WriteLE32(s, static_cast<uint32_t>(height));
    WriteLE32(s, static_cast<uint32_t>(block.size()));
    Append(out, block);
    for (size_t i = 0; i < n; ++i) AppendSpentEntry(out, spent[i]);
    return out;
}

Bytes WithMode(uint8_t mode, const uint8_t* data, size_t len) {
    Bytes out{mode};
    Append(out, data, len);
    return out;
}

void BlockSeeds(const fixtures::FixtureFiles& f, SeedWriter& w) {
    const std::string h = std::to_string(f.height);
    const std::vector<SpentOutputEntry> spent = ParseSpentOutputsJson(f.spent_outputs_json);
    const Bytes& raw = f.block_raw;
    if (f.spent_outputs_json.size() <= kFullBlockMax) {
        w.Add("json-" + h, WithMode(0x03, reinterpret_cast<const uint8_t*>(f.spent_outputs_json.data()),
                                    f.spent_outputs_json.size()));
    }
    if (raw.size() <= kFullBlockMax) {
        w.Add("block-" + h, BlockSeed(f.height, raw, spent.data(), spent.size(), 0));
        return;
    }
    const Block block = ParseBlock(raw.data(), raw.size());
    const Transaction& cb = block.txs[0];
    std::set<std::string> seen;
    size_t first = 0;  // index in `spent` of the transaction's first input
    int picks = 0;
    for (size_t t = 1; t < block.txs.size() && picks < kPicksPerBlock; ++t) {
        const Transaction& tx = block.txs[t];
        const size_t mine = first;
        first += tx.vin.size();
        if (tx.size > kPickTxMax) continue;
        std::vector<std::string> shapes;
        for (size_t i = 0; i < tx.vin.size(); ++i) {
            const TxIn& in = tx.vin[i];
            shapes.push_back(InputScriptTypeName(in, spent.at(mine + i).out.script_pubkey) + "/" +
                             std::to_string(std::min<size_t>(in.witness.size(), 4)) + "/" +
                             (in.script_sig.empty() ? "0" : "1"));
        }
        if (std::all_of(shapes.begin(), shapes.end(), [&](const std::string& s) { return seen.count(s) != 0; })) {
            continue;
        }
        seen.insert(shapes.begin(), shapes.end());
        ++picks;
        Bytes sub(raw.begin(), raw.begin() + kBlockHeaderSize);
        VectorSink s{sub};
        WriteCompactSize(s, 2);
        Append(sub, raw.data() + cb.offset, cb.size);
        Append(sub, raw.data() + tx.offset, tx.size);
        const std::string name = h + "-tx" + std::to_string(t);
        w.Add("block-" + name, BlockSeed(f.height, sub, spent.data() + mine, tx.vin.size(), picks % 4));
        w.Add("tx-" + name, WithMode(0x02, raw.data() + tx.offset, tx.size));
    }
}

void BlockParserSeeds(const std::string& fixtures_dir, SeedWriter& w) {
    for (const fixtures::FixtureFiles& f : fixtures::LoadFixtureFiles(fixtures_dir)) {
        if (!f.error.empty()) throw std::runtime_error(f.error);
        BlockSeeds(f, w);
    }
    for (const std::string name : {"tx_valid", "tx_invalid"}) {
        const json rows = ReadVectors(fixtures_dir + "/vectors/bitcoin-core/" + name + ".json");
        if (!rows.is_array()) continue;
        for (size_t i = 0; i < rows.size(); ++i) {
            const json& row = rows[i];
            if (!row.is_array() || row.size() < 2 || !row[1].is_string()) continue;
            std::vector<uint8_t> tx;
            if (!TryHexDecode(row[1].get<std::string>(), tx) || tx.empty()) continue;
            w.Add("tx-" + name + "-" + std::to_string(i), WithMode(0x02, tx.data(), tx.size()));
        }
    }
    const std::string empty = "{\"spent_outputs\":[]}";
    w.Add("json-empty", WithMode(0x03, reinterpret_cast<const uint8_t*>(empty.data()), empty.size()));
}

// ---------------------------------------------------------------------------------------------
// script_eval_fuzz (layout at the top of fuzz/script_eval_fuzz.cpp)

struct ScriptSeedInput {
    uint32_t flags = 0;
    uint8_t mode = 0;
    Bytes script_sig, script_pubkey;
    std::vector<Bytes> witness;
};

/** `checker` 0x75: ECDSA and Schnorr checks pass, CLTV and CSV pass, the flag-monotonicity
 *  check is on. The flags it drops or adds (`flip`) are a different spread of the 21 known bits
 *  for each seed, from the running seed count. */
Bytes ScriptSeed(const ScriptSeedInput& in, uint32_t& counter) {
    Bytes out;
    VectorSink s{out};
    WriteLE32(s, in.flags);
    WriteLE32(s, ((++counter * 2654435761u) >> 11) & 0x1fffff);
    WriteU8(s, in.mode);
    WriteU8(s, 0x75);
    WriteU8(s, 0);
    WriteLE16(s, static_cast<uint16_t>(in.script_sig.size()));
    Append(out, in.script_sig);
    WriteLE16(s, static_cast<uint16_t>(in.script_pubkey.size()));
    Append(out, in.script_pubkey);
    const size_t items = std::min<size_t>(in.witness.size(), 255);
    WriteU8(s, static_cast<uint8_t>(items));
    for (size_t i = 0; i < items; ++i) {
        WriteLE16(s, static_cast<uint16_t>(in.witness[i].size()));
        Append(out, in.witness[i]);
    }
    return out;
}

/** Hex strings to bytes; false when one is not hex. */
bool HexList(const json& list, size_t count, std::vector<Bytes>& out) {
    for (size_t i = 0; i < count; ++i) {
        Bytes b;
        if (!list[i].is_string() || !TryHexDecode(list[i].get<std::string>(), b)) return false;
        out.push_back(std::move(b));
    }
    return true;
}

void CoreScriptSeeds(const json& rows, SeedWriter& w, uint32_t& counter) {
    for (size_t i = 0; i < rows.size(); ++i) {
        const json& full = rows[i];
        if (!full.is_array() || full.empty()) continue;
        // [[wit..., amount]?, scriptSig, scriptPubKey, flags, expected, comment?]
        ScriptSeedInput in;
        size_t at = 0;
        if (full[0].is_array()) {
            if (full[0].empty() || !HexList(full[0], full[0].size() - 1, in.witness)) continue;
            at = 1;
        }
        if (full.size() < at + 4 || !full[at].is_string() || !full[at + 1].is_string() || !full[at + 2].is_string()) {
            continue;
        }
        try {
            in.script_sig = ParseScriptAsm(full[at].get<std::string>());
            in.script_pubkey = ParseScriptAsm(full[at + 1].get<std::string>());
            in.flags = ParseScriptFlags(full[at + 2].get<std::string>());
        } catch (const std::runtime_error&) {
            continue;  // a word or flag Core's ParseScript / ParseScriptFlags would reject
        }
        w.Add("core-" + std::to_string(i), ScriptSeed(in, counter));
        // The same scriptPubKey run alone by EvalScript, BASE, on the witness items as its stack.
        if (i % 4 == 0) {
            in.mode = 2;
            w.Add("core-" + std::to_string(i) + "-eval", ScriptSeed(in, counter));
        }
    }
}

void TaprootAssetSeeds(const json& tests, SeedWriter& w, uint32_t& counter) {
    std::map<std::string, int> per_comment;
    for (size_t i = 0; i < tests.size(); ++i) {
        const json& t = tests[i];
        int& n = per_comment[t.value("comment", "")];
        if (n >= 2) continue;
        ++n;
        // prevouts[index]: a CTxOut, value (8) then the scriptPubKey with its CompactSize length.
        Bytes prevout;
        const size_t index = t.at("index").get<size_t>();
        if (!TryHexDecode(t.at("prevouts").at(index).get<std::string>(), prevout) || prevout.size() < 9) continue;
        ScriptSeedInput base;
        try {
            Reader r(prevout.data() + 8, prevout.size() - 8);
            base.script_pubkey = r.ReadVarBytes("prevout scriptPubKey");
            base.flags = ParseScriptFlags(t.at("flags").get<std::string>());
        } catch (const std::runtime_error&) {
            continue;  // a truncated prevout (ibd::Error) or a flag ParseScriptFlags rejects
        }
        for (const auto& [kind, key] : {std::pair<const char*, const char*>{"ok", "success"}, {"bad", "failure"}}) {
            const auto spend = t.find(key);
            if (spend == t.end() || !spend->is_object()) continue;
            ScriptSeedInput in = base;
            const json& wit = spend->at("witness");
            if (!TryHexDecode(spend->at("scriptSig").get<std::string>(), in.script_sig) ||
                !HexList(wit, wit.size(), in.witness)) {
                continue;
            }
            w.Add("taproot-" + std::to_string(i) + "-" + kind, ScriptSeed(in, counter));
        }
    }
}

void ScriptEvalSeeds(const std::string& fixtures_dir, SeedWriter& w) {
    uint32_t counter = 0;
    const json core = ReadVectors(fixtures_dir + "/vectors/bitcoin-core/script_tests.json");
    if (core.is_array()) CoreScriptSeeds(core, w, counter);
    const json assets = ReadVectors(fixtures_dir + "/vectors/btcd-taproot-ref/taproot_script_assets.json");
    if (assets.is_array()) TaprootAssetSeeds(assets, w, counter);
}

int Main(int argc, char** argv) {
    const std::string usage = "usage: ibd_fuzz_seeds <block_parser_fuzz|script_eval_fuzz> <corpus_dir>";
    if (argc != 3) {
        std::cerr << usage << "\n";
        return 2;
    }
    const std::string target = argv[1];
    if (target != "block_parser_fuzz" && target != "script_eval_fuzz") {
        std::cerr << "ibd_fuzz_seeds: unknown target '" << target << "'\n" << usage << "\n";
        return 2;
    }
    try {
        SeedWriter w(argv[2]);
        const std::string dir = fixtures::FixturesDir();
        std::error_code ec;
        if (!fs::is_directory(dir + "/mainnet", ec)) {
            std::cerr << "ibd_fuzz_seeds: warning: no fixtures at " << dir << "; " << target
                      << " starts from an empty corpus\n";
        } else if (target == "block_parser_fuzz") {
            BlockParserSeeds(dir, w);
        } else {
            ScriptEvalSeeds(dir, w);
        }
        std::cout << w.count() << " seeds written to " << argv[2] << "\n";
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "ibd_fuzz_seeds: " << e.what() << "\n";
        return 1;
    }
}

}  // namespace
}  // namespace ibd::fuzz

int main(int argc, char** argv) { return ibd::fuzz::Main(argc, argv); }
