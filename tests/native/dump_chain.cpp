// ibd_dump_chain <block file> [--skip-proof-of-work]
//
// Validates a block file (Core's blk?????.dat framing, native/primitives/block_file.h) as a
// chain from mainnet's genesis with the native engine (ConnectBlockFile,
// native/validation/chain_validation.h) and prints one JSON document on stdout, for the
// native-vs-wasm parity test (tests/chain-validation-api.test.mjs):
//   { "frames", "not_validated", "file_error" (what() or null), "tip": {"height", "hash", "coins"},
//     "blocks": [ { "height", "hash", "prev_hash", "connected", "error", "valid",
//       "reject_reason", "stage", "message", "tx", "input", "output", "byte", "file_offset",
//       "spends_from_view", "spends_in_block", "coins_added", "coins_spent", "coins_in_view",
//       "median_time_past", "fee", "subsidy", "sigop_cost", "not_checked": [rule...],
//       "input_failures": [[tx, input, type, script error]...],
//       "checks": "<hex of the final check records>", "verdicts": "<hex>", "origins": [[tx, input]...],
//       "spent": [[txid, vout, value, script hex]...] } ] }
// Exit status: 0 done (whatever the verdicts), 1 usage, 2 the file cannot be read, 3 other failure.
#include <cstdint>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "file_bytes.h"
#include "primitives/hex.h"
#include "util/error.h"
#include "validation/chain_validation.h"

int main(int argc, char** argv) {
    const bool skip = argc == 3 && std::string(argv[2]) == "--skip-proof-of-work";
    if (argc != 2 && !skip) {
        std::cerr << "usage: " << argv[0] << " <block file> [--skip-proof-of-work]\n";
        return 1;
    }
    std::vector<uint8_t> file;
    try {
        file = ibd::fixtures::ReadFileBytes(argv[1]);
    } catch (const std::exception& e) {
        std::cerr << e.what() << "\n";
        return 2;
    }
    try {
        ibd::ChainOptions options;
        options.skip_proof_of_work = skip;
        ibd::ChainValidation chain(options);
        const ibd::ChainFileResult res = ibd::ConnectBlockFile(chain, file.data(), file.size());
        nlohmann::json doc;
        doc["frames"] = res.frames;
        doc["not_validated"] = res.not_validated;
        doc["file_error"] = res.file_error ? nlohmann::json(res.file_error->what()) : nlohmann::json(nullptr);
        doc["tip"] = {{"height", chain.TipHeight()},
                      {"hash", ibd::HexEncodeReversed(chain.TipHash())},
                      {"coins", chain.Coins().GetCacheSize()}};
        nlohmann::json blocks = nlohmann::json::array();
        for (const ibd::ChainBlockResult& b : res.blocks) {
            const ibd::BlockValidationResult& r = b.result;
            nlohmann::json rules = nlohmann::json::array();
            for (const ibd::NotChecked& n : r.not_checked) rules.push_back(n.rule);
            nlohmann::json origins = nlohmann::json::array();
            for (const ibd::CheckOrigin& o : r.origins) origins.push_back({o.tx_index, o.input_index});
            nlohmann::json failures = nlohmann::json::array();
            for (const ibd::InputFailure& f : r.input_failures) failures.push_back({f.tx, f.input, f.input_type, f.script_error});
            nlohmann::json spent = nlohmann::json::array();
            for (const ibd::SpentOutputEntry& e : b.spent) {
                spent.push_back({ibd::HexEncodeReversed(e.prevout.txid), e.prevout.n, e.out.value,
                                 ibd::HexEncode(e.out.script_pubkey)});
            }
            blocks.push_back({{"height", b.height},
                              {"hash", r.hash_hex},
                              {"prev_hash", b.prev_hash_hex},
                              {"connected", b.connected},
                              {"error", b.error},
                              {"valid", b.error.empty() && r.valid},
                              {"reject_reason", r.reject_reason},
                              {"stage", r.stage},
                              {"message", b.error.empty() ? r.error : b.error},
                              {"tx", r.tx_index},
                              {"input", r.input_index},
                              {"output", r.output_index},
                              {"byte", r.byte_offset},
                              {"file_offset", b.file_offset},
                              {"spends_from_view", b.spends_from_view},
                              {"spends_in_block", b.spends_in_block},
                              {"coins_added", b.coins_added},
                              {"coins_spent", b.coins_spent},
                              {"coins_in_view", b.coins_in_view},
                              {"median_time_past", b.median_time_past},
                              {"fee", r.fee},
                              {"subsidy", r.subsidy},
                              {"sigop_cost", r.sigop_cost},
                              {"not_checked", rules},
                              {"input_failures", failures},
                              {"checks", ibd::HexEncode(r.checks)},
                              {"verdicts", ibd::HexEncode(r.verdicts)},
                              {"origins", origins},
                              {"spent", spent}});
        }
        doc["blocks"] = blocks;
        std::cout << doc.dump() << "\n";
    } catch (const std::exception& e) {
        std::cerr << "unexpected failure: " << e.what() << "\n";
        return 3;
    }
    return 0;
}
