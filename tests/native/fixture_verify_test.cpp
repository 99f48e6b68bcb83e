// End to end over the real blocks: every check record the engine extracts from the mainnet
// fixtures must verify (VerifyBatch, batch_verify.h). A wrong sighash, scriptCode, key or
// signature slice would make the record invalid, so this is the test that the extracted
// messages are the ones the signers signed. Also: a changed amount breaks exactly the BIP143
// record that commits to it.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "batch_verify.h"
#include "engine.h"
#include "test_support.h"

namespace ibd {
namespace {

std::vector<uint8_t> Verify(const BlockChecks& bc) {
    std::vector<uint8_t> verdicts(bc.origins.size(), 0xee);
    const BatchStatus st =
        VerifyBatch(bc.checks.data(), bc.checks.size(), static_cast<uint32_t>(bc.origins.size()), verdicts.data());
    EXPECT_EQ(st.error, 0) << "malformed record " << st.error_record << " at " << st.error_offset;
    return verdicts;
}

BlockChecks Extract(int height, std::vector<SpentOutputEntry>* spent_out = nullptr,
                    std::vector<uint8_t>* raw_out = nullptr) {
    const std::string dir = "mainnet/" + std::to_string(height) + "/";
    const std::vector<uint8_t> raw = ReadFileBytes(FixturePath(dir + "block.raw"));
    const std::vector<SpentOutputEntry> spent = ParseSpentOutputsJson(ReadFile(FixturePath(dir + "spent_outputs.json")));
    if (spent_out) *spent_out = spent;
    if (raw_out) *raw_out = raw;
    return ExtractBlockChecks(raw.data(), raw.size(), spent, "", height);
}

TEST(FixtureVerify, EveryExtractedSignatureVerifies) {
    const nlohmann::json index = ReadJsonFile(FixturePath("index.json"));
    size_t blocks = 0, total = 0;
    for (const nlohmann::json& e : index["mainnet_with_prevouts"]) {
        const int height = e["height"].get<int>();
        const BlockChecks bc = Extract(height);
        const std::vector<uint8_t> verdicts = Verify(bc);
        size_t invalid = 0;
        for (size_t i = 0; i < verdicts.size(); ++i) {
            if (verdicts[i] != static_cast<uint8_t>(Verdict::kValid)) {
                if (++invalid <= 5) {
                    ADD_FAILURE() << "height " << height << ": record " << i << " (tx " << bc.origins[i].tx_index
                                  << ", input " << bc.origins[i].input_index << ") verdict " << int(verdicts[i]);
                }
            }
        }
        EXPECT_EQ(invalid, 0u) << "height " << height;
        total += verdicts.size();
        ++blocks;
    }
    EXPECT_EQ(blocks, 24u);
    EXPECT_EQ(total, 13493u);  // the supported inputs of the 24 blocks (fixture_blocks_test)
}

TEST(FixtureVerify, ChangedAmountInvalidatesOnlyItsBip143Record) {
    // Block 553724: one P2PKH, one P2SH-P2WPKH and one P2WPKH input. BIP143 commits to the
    // amount of the input being signed only.
    std::vector<SpentOutputEntry> spent;
    std::vector<uint8_t> raw;
    const BlockChecks before = Extract(553724, &spent, &raw);
    ASSERT_EQ(before.origins.size(), 3u);
    size_t segwit_record = 3;
    for (size_t i = 0; i < spent.size(); ++i) {
        if (spent[i].out.script_pubkey.size() == 22 && spent[i].out.script_pubkey[0] == 0x00) segwit_record = i;
    }
    ASSERT_LT(segwit_record, 3u);  // records are in input order, one per input here
    spent[segwit_record].out.value += 1;
    const BlockChecks after = ExtractBlockChecks(raw.data(), raw.size(), spent, "", 553724);
    const std::vector<uint8_t> verdicts = Verify(after);
    for (size_t i = 0; i < verdicts.size(); ++i) {
        EXPECT_EQ(verdicts[i], i == segwit_record ? 0 : 1) << "record " << i;
    }
}

}  // namespace
}  // namespace ibd
