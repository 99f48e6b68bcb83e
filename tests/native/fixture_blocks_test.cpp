// Every mainnet fixture block with spent outputs (index.json "mainnet_with_prevouts") through
// ExtractBlockChecks, the walking skeleton's template extraction (still behind the wasm
// extractBlock; the interpreter path, BlockValidation, is block_validation_test.cpp): block hash, tx and input counts, the inputs extracted per script type
// against the fixtures' independent signature check ("signature_check"), the unsupported
// inputs by type, and the shape of the packed check buffer.
#include <gtest/gtest.h>

#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "check_buffer.h"
#include "engine.h"
#include "test_support.h"

namespace ibd {
namespace {

struct FixtureBlock {
    int height;
    nlohmann::json entry;
};

std::vector<FixtureBlock> Blocks() {
    const nlohmann::json index = ReadJsonFile(FixturePath("index.json"));
    std::vector<FixtureBlock> out;
    for (const nlohmann::json& e : index["mainnet_with_prevouts"]) out.push_back({e["height"].get<int>(), e});
    return out;
}

BlockChecks Extract(const FixtureBlock& b) {
    const std::string dir = "mainnet/" + std::to_string(b.height) + "/";
    const std::vector<uint8_t> raw = ReadFileBytes(FixturePath(dir + "block.raw"));
    const std::vector<SpentOutputEntry> spent = ParseSpentOutputsJson(ReadFile(FixturePath(dir + "spent_outputs.json")));
    return ExtractBlockChecks(raw.data(), raw.size(), spent, b.entry["block_hash"].get<std::string>(), b.height);
}

/** The fixtures' "signature_check" keys ("<type>:<True|None>") mapped to engine type names;
 *  `supported` selects the five types the engine extracts. */
std::map<std::string, uint32_t> ExpectedByType(const nlohmann::json& signature_check, bool supported) {
    static const std::map<std::string, std::string> kSupported = {
        {"p2pk", "p2pk"}, {"p2pkh", "p2pkh"}, {"p2wpkh", "p2wpkh"}, {"p2sh-p2wpkh", "p2sh-p2wpkh"},
        {"p2tr-key", "p2tr-keypath"}};
    static const std::map<std::string, std::string> kUnsupported = {
        {"bare-multisig", "multisig"}, {"p2sh-multisig", "p2sh"}, {"p2sh-p2pk", "p2sh"},
        {"p2sh-p2wsh", "p2sh-p2wsh"}, {"p2wsh", "p2wsh"}, {"p2tr-script", "p2tr-scriptpath"},
        {"other", "empty"}};  // block 367891: the 20,000 empty-scriptPubKey spends
    std::map<std::string, uint32_t> out;
    for (const auto& [key, count] : signature_check.items()) {
        const std::string type = key.substr(0, key.find(':'));
        const auto& table = supported ? kSupported : kUnsupported;
        const auto it = table.find(type);
        if (it != table.end()) out[it->second] += count.get<uint32_t>();
        else if ((supported ? kUnsupported : kSupported).count(type) == 0) ADD_FAILURE() << "unknown type " << key;
    }
    return out;
}

TEST(FixtureBlocks, EveryBlockExtractsAsExpected) {
    const std::vector<FixtureBlock> blocks = Blocks();
    ASSERT_EQ(blocks.size(), 24u);
    uint32_t total_checks = 0;
    for (const FixtureBlock& b : blocks) {
        SCOPED_TRACE("height " + std::to_string(b.height));
        BlockChecks bc;
        ASSERT_NO_THROW(bc = Extract(b));
        EXPECT_EQ(bc.hash_hex, b.entry["block_hash"].get<std::string>());
        EXPECT_EQ(bc.tx_count, b.entry["tx_count"].get<uint32_t>());
        EXPECT_EQ(bc.inputs, b.entry["non_coinbase_inputs"].get<uint32_t>());

        const auto supported = ExpectedByType(b.entry["signature_check"], true);
        const auto unsupported = ExpectedByType(b.entry["signature_check"], false);
        EXPECT_EQ(bc.inputs_by_type, supported);
        EXPECT_EQ(bc.unsupported_by_type, unsupported);
        uint32_t sum = 0, supported_inputs = 0;
        for (const auto& [name, n] : bc.inputs_by_type) sum += n, supported_inputs += n;
        for (const auto& [name, n] : bc.unsupported_by_type) sum += n;
        EXPECT_EQ(sum, bc.inputs) << "every input is counted once";

        // One record per supported input (single-signature templates), all well formed.
        EXPECT_EQ(bc.origins.size(), supported_inputs);
        EXPECT_EQ(bc.ecdsa_checks + bc.schnorr_checks, bc.origins.size());
        if (supported_inputs > 0) EXPECT_GT(bc.checks.size(), 0u);
        size_t pos = 0, records = 0, schnorr = 0;
        while (pos < bc.checks.size()) {
            ASSERT_LE(pos + kCheckHeaderSize, bc.checks.size());
            const uint8_t type = bc.checks[pos];
            const size_t pk = bc.checks[pos + 1];
            const size_t sig = bc.checks[pos + 2] | (bc.checks[pos + 3] << 8);
            if (type == static_cast<uint8_t>(CheckType::kSchnorr)) {
                EXPECT_EQ(pk, 32u);
                EXPECT_EQ(sig, 64u);
                ++schnorr;
            } else {
                ASSERT_EQ(type, static_cast<uint8_t>(CheckType::kEcdsa));
                EXPECT_TRUE(pk == 33 || pk == 65) << "record " << records << " pubkey_len " << pk;
                EXPECT_LE(sig, kMaxEcdsaSigLen);
            }
            pos += kCheckHeaderSize + pk + sig;
            ++records;
        }
        EXPECT_EQ(pos, bc.checks.size());
        EXPECT_EQ(records, bc.origins.size());
        EXPECT_EQ(schnorr, bc.schnorr_checks);
        // Origins are in block order and never point at the coinbase.
        for (size_t i = 0; i < bc.origins.size(); ++i) {
            EXPECT_GE(bc.origins[i].tx_index, 1u);
            if (i > 0) {
                const CheckOrigin& a = bc.origins[i - 1];
                const CheckOrigin& c = bc.origins[i];
                EXPECT_TRUE(a.tx_index < c.tx_index || (a.tx_index == c.tx_index && a.input_index < c.input_index));
            }
        }
        total_checks += static_cast<uint32_t>(bc.origins.size());

        std::cout << "[ block    ] " << b.height << " txs " << bc.tx_count << " inputs " << bc.inputs << " checks "
                  << bc.origins.size() << " | supported";
        for (const auto& [name, n] : bc.inputs_by_type) std::cout << " " << name << "=" << n;
        std::cout << " | unsupported";
        for (const auto& [name, n] : bc.unsupported_by_type) std::cout << " " << name << "=" << n;
        std::cout << "\n";
    }
    // Sum of the fixtures' verified supported-type inputs (README table).
    EXPECT_EQ(total_checks, 1u + 1 + 1 + 1 + 1 + 1 + 1 + 74 + 131 + 12 + 13 + 14 + 12 + 94 + 899 + 732 + 1424 + 810 +
                                886 + 576 + 12 + 3 + 69 + 7725);
}

}  // namespace
}  // namespace ibd
