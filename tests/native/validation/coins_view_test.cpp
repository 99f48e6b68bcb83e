// CoinsViewCache and AddCoins (native/validation/coins_view.h) on the outputs of real blocks (1,
// 9 and 170 of the fixture chain): a coin added is found with its value, script, height and
// coinbase flag; spent, it is gone; a view over a base reads through, shadows what it spends and
// leaves the base untouched until Flush, which writes all of it; unspendable outputs are never
// added; an unspent coin of a non-coinbase is not overwritten, a coinbase's may be (BIP30's two
// exceptions); the byte budget is an Error naming the outpoint, and Flush is all or nothing.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "primitives/block.h"
#include "primitives/hex.h"
#include "script/script.h"
#include "support/test_support.h"
#include "validation/coins_view.h"

namespace ibd {
namespace {

Block ChainBlock(int height) {
    static const FixtureChain chain = LoadFixtureChain();
    const std::vector<uint8_t>& raw = chain.blocks.at(height - chain.first_height);
    return ParseBlock(raw.data(), raw.size());
}

OutPoint Out(const Transaction& tx, uint32_t n) {
    OutPoint o;
    o.txid = tx.txid;
    o.n = n;
    return o;
}

TEST(CoinsViewCache, AddAccessSpend) {
    const Block b9 = ChainBlock(9);
    CoinsViewCache view;
    EXPECT_EQ(AddCoins(view, b9.txs[0], 9), -1);
    const OutPoint o = Out(b9.txs[0], 0);
    ASSERT_TRUE(view.HaveCoin(o));
    const Coin* coin = view.AccessCoin(o);
    EXPECT_EQ(coin->out.value, 5000000000);
    EXPECT_EQ(coin->out.script_pubkey, b9.txs[0].vout[0].script_pubkey);
    EXPECT_EQ(coin->height, 9);
    EXPECT_TRUE(coin->coinbase);
    EXPECT_EQ(view.GetCacheSize(), 1u);
    EXPECT_EQ(view.DynamicMemoryUsage(), kCoinOverheadBytes + b9.txs[0].vout[0].script_pubkey.size());
    EXPECT_FALSE(view.HaveCoin(Out(b9.txs[0], 1)));
    Coin moved;
    EXPECT_TRUE(view.SpendCoin(o, &moved));
    EXPECT_EQ(moved.height, 9);
    EXPECT_FALSE(view.HaveCoin(o));
    EXPECT_FALSE(view.SpendCoin(o));
    EXPECT_EQ(view.GetCacheSize(), 0u);
    EXPECT_EQ(view.DynamicMemoryUsage(), 0u);
}

TEST(CoinsViewCache, AViewOverABaseChangesItOnlyAtFlush) {
    const Block b9 = ChainBlock(9), b170 = ChainBlock(170);
    CoinsViewCache base;
    AddCoins(base, b9.txs[0], 9);
    CoinsViewCache view(&base);
    const OutPoint spent = Out(b9.txs[0], 0);
    EXPECT_TRUE(view.HaveCoin(spent));        // read through
    EXPECT_FALSE(view.HaveCoinInCache(spent));
    EXPECT_TRUE(view.SpendCoin(spent));
    EXPECT_FALSE(view.HaveCoin(spent));       // shadowed here
    EXPECT_TRUE(base.HaveCoin(spent));        // the base untouched
    EXPECT_EQ(AddCoins(view, b170.txs[1], 170), -1);
    EXPECT_TRUE(view.HaveCoinInCache(Out(b170.txs[1], 0)));
    EXPECT_FALSE(base.HaveCoin(Out(b170.txs[1], 0)));
    EXPECT_FALSE(view.AccessCoin(Out(b170.txs[1], 1))->coinbase);
    // A coin of this view spent here is simply gone.
    EXPECT_TRUE(view.SpendCoin(Out(b170.txs[1], 1)));
    EXPECT_EQ(view.GetCacheSize(), 1u);
    view.Flush();
    EXPECT_EQ(view.GetCacheSize(), 0u);
    EXPECT_FALSE(base.HaveCoin(spent));
    EXPECT_TRUE(base.HaveCoin(Out(b170.txs[1], 0)));
    EXPECT_FALSE(base.HaveCoin(Out(b170.txs[1], 1)));
    EXPECT_EQ(base.GetCacheSize(), 1u);
    EXPECT_EQ(base.AccessCoin(Out(b170.txs[1], 0))->out.value, 1000000000);  // Hal Finney's 10 BTC
}

TEST(CoinsViewCache, UnspendableOutputsAreNeverAdded) {
    const Block b1 = ChainBlock(1);
    Coin coin;
    coin.out.value = 1;
    coin.out.script_pubkey = {OP_RETURN, 0x01, 0x00};
    CoinsViewCache view;
    EXPECT_TRUE(view.AddCoin(Out(b1.txs[0], 7), coin, false));
    EXPECT_FALSE(view.HaveCoin(Out(b1.txs[0], 7)));
    coin.out.script_pubkey.assign(10001, OP_1);  // above MAX_SCRIPT_SIZE
    EXPECT_TRUE(view.AddCoin(Out(b1.txs[0], 8), coin, false));
    EXPECT_EQ(view.GetCacheSize(), 0u);
    EXPECT_TRUE(IsUnspendable({OP_RETURN}));
    EXPECT_FALSE(IsUnspendable(b1.txs[0].vout[0].script_pubkey));
}

TEST(CoinsViewCache, OnlyACoinbaseOverwritesAnUnspentCoin) {
    const Block b1 = ChainBlock(1), b170 = ChainBlock(170);
    CoinsViewCache view;
    AddCoins(view, b170.txs[1], 170);
    // The same non-coinbase again (a repeated txid): refused at its first output, kept as it was.
    EXPECT_EQ(AddCoins(view, b170.txs[1], 171), 0);
    EXPECT_EQ(view.AccessCoin(Out(b170.txs[1], 0))->height, 170);
    // A repeated coinbase overwrites (Core's AddCoins; BIP30 is checked before, CheckBip30).
    AddCoins(view, b1.txs[0], 1);
    EXPECT_EQ(AddCoins(view, b1.txs[0], 2), -1);
    EXPECT_EQ(view.AccessCoin(Out(b1.txs[0], 0))->height, 2);
    EXPECT_EQ(view.GetCacheSize(), 3u);
}

TEST(CoinsViewCache, TheBudgetIsAnErrorAndFlushIsAllOrNothing) {
    const Block b1 = ChainBlock(1), b2 = ChainBlock(2), b3 = ChainBlock(3);
    const size_t one = kCoinOverheadBytes + b1.txs[0].vout[0].script_pubkey.size();
    CoinsViewCache base(nullptr, 2 * one);
    AddCoins(base, b1.txs[0], 1);
    AddCoins(base, b2.txs[0], 2);
    try {
        AddCoins(base, b3.txs[0], 3);
        ADD_FAILURE() << "no error past the budget";
    } catch (const Error& e) {
        EXPECT_EQ(e.reason(), "coins view full: adding the coin " + HexEncodeReversed(b3.txs[0].txid) + ":0 (" + std::to_string(one) +
                                  " bytes) would take it to " + std::to_string(3 * one) + " bytes, past its bound of " +
                                  std::to_string(2 * one) + " (2 coins held)");
    }
    EXPECT_EQ(base.GetCacheSize(), 2u);
    CoinsViewCache view(&base, 10 * one);
    AddCoins(view, b3.txs[0], 3);
    try {
        view.Flush();
        ADD_FAILURE() << "no error past the base's budget";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("coins view full: writing a block's 1 coin changes"), std::string::npos)
            << e.what();
    }
    EXPECT_EQ(base.GetCacheSize(), 2u);  // unchanged
    EXPECT_FALSE(base.HaveCoin(Out(b3.txs[0], 0)));
    // Spending one first makes room: the spend is written before the add.
    EXPECT_TRUE(view.SpendCoin(Out(b1.txs[0], 0)));
    view.Flush();
    EXPECT_EQ(base.GetCacheSize(), 2u);
    EXPECT_TRUE(base.HaveCoin(Out(b3.txs[0], 0)));
    EXPECT_FALSE(base.HaveCoin(Out(b1.txs[0], 0)));
    CoinsViewCache root;
    EXPECT_THROW(root.Flush(), Error);
}

}  // namespace
}  // namespace ibd
