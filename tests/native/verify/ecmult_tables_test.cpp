// libsecp256k1's tables of multiples of G (native/secp256k1/ecmult_tables.h): computed with the
// library's generator code, they are the tables its src/precomputed_ecmult.c ships, byte for
// byte. The wasm variants compute theirs at start (tests/schnorr-batch.test.mjs checks the same
// SHA-256 there); the native build links the shipped ones.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "crypto/sha256.h"
#include "primitives/hex.h"
#include "secp256k1/ecmult_tables.h"

namespace ibd {
namespace {

/** SHA-256 of the shipped tables, the odd multiples of G then of 2^128*G (ECMULT_WINDOW_SIZE 15,
 *  64 bytes per point): also asserted of the wasm variants' computed tables. */
constexpr const char* kTablesSha256 = "52d7d0a8a553038718865c68194ca467c94bb4accd78b0416f7e5f09c986f3a3";

TEST(EcmultTables, ComputedTablesAreTheShippedOnes) {
    EXPECT_EQ(ibd_ecmult_tables_computed(), 0) << "the native build links src/precomputed_ecmult.c";
    const size_t n = ibd_ecmult_table_bytes();
    ASSERT_EQ(n, 8192u * 64u);  // ECMULT_TABLE_SIZE(15) points of 64 bytes
    std::vector<unsigned char> g(n), g128(n);
    ibd_ecmult_compute_tables(g.data(), g128.data());
    ASSERT_NE(ibd_ecmult_table(0), nullptr);
    ASSERT_NE(ibd_ecmult_table(1), nullptr);
    EXPECT_EQ(ibd_ecmult_table(2), nullptr);
    EXPECT_EQ(std::memcmp(g.data(), ibd_ecmult_table(0), n), 0);
    EXPECT_EQ(std::memcmp(g128.data(), ibd_ecmult_table(1), n), 0);
    std::vector<unsigned char> both(g);
    both.insert(both.end(), g128.begin(), g128.end());
    const Hash32 d = Sha256Hash(both.data(), both.size());
    EXPECT_EQ(HexEncode(d.data(), d.size()), kTablesSha256);
}

TEST(EcmultTables, GrownLevelByLevelTheyAreTheSameTables) {
    // The wasm variants start with window 12 and double the tables level by level
    // (ibd_ecmult_compute_tables_to from the window they have): every step must leave a prefix
    // of the full tables, and the last the full tables.
    const size_t n = ibd_ecmult_table_bytes();
    std::vector<unsigned char> g(n), g128(n);
    ASSERT_EQ(ibd_ecmult_compute_tables_to(g.data(), g128.data(), 0, 12), 1);
    const size_t prefix12 = (size_t{1} << 10) * 64;
    EXPECT_EQ(std::memcmp(g.data(), ibd_ecmult_table(0), prefix12), 0);
    EXPECT_EQ(std::memcmp(g128.data(), ibd_ecmult_table(1), prefix12), 0);
    for (int w = 13; w <= 15; ++w) {
        ASSERT_EQ(ibd_ecmult_compute_tables_to(g.data(), g128.data(), w - 1, w), 1) << "window " << w;
        const size_t prefix = (size_t{1} << (w - 2)) * 64;
        EXPECT_EQ(std::memcmp(g.data(), ibd_ecmult_table(0), prefix), 0) << "window " << w;
        EXPECT_EQ(std::memcmp(g128.data(), ibd_ecmult_table(1), prefix), 0) << "window " << w;
    }
    // From nothing to window 2 is the first point of each: G, and 2^128*G.
    std::vector<unsigned char> one(n, 0), one128(n, 0);
    ASSERT_EQ(ibd_ecmult_compute_tables_to(one.data(), one128.data(), 0, 2), 1);
    EXPECT_EQ(std::memcmp(one.data(), ibd_ecmult_table(0), 64), 0);
    EXPECT_EQ(std::memcmp(one128.data(), ibd_ecmult_table(1), 64), 0);
    EXPECT_EQ(one[64], 0) << "window 2 is one point";
}

TEST(EcmultTables, ComputeRejectsWindowsOutOfRange) {
    const size_t n = ibd_ecmult_table_bytes();
    std::vector<unsigned char> g(n, 0xaa), g128(n, 0xaa);
    EXPECT_EQ(ibd_ecmult_compute_tables_to(g.data(), g128.data(), 0, 16), 0);
    EXPECT_EQ(ibd_ecmult_compute_tables_to(g.data(), g128.data(), 0, 1), 0);
    EXPECT_EQ(ibd_ecmult_compute_tables_to(g.data(), g128.data(), 1, 12), 0);
    EXPECT_EQ(ibd_ecmult_compute_tables_to(g.data(), g128.data(), 13, 12), 0);
    EXPECT_EQ(ibd_ecmult_compute_tables_to(g.data(), g128.data(), 16, 16), 0);
    EXPECT_EQ(g[0], 0xaa) << "nothing computed";
    EXPECT_EQ(g128[0], 0xaa);
}

TEST(EcmultTables, LinkedTablesHaveTheFullWindow) {
    EXPECT_EQ(ibd_ecmult_tables_window(), 15);
    EXPECT_EQ(ibd_ecmult_tables_grow(), 15);  // linked tables do not grow
}

}  // namespace
}  // namespace ibd
