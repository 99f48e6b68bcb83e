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

}  // namespace
}  // namespace ibd
