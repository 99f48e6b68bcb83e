// EcdsaSignatureParseDerLax: the acceptance rules of Bitcoin Core's ecdsa_signature_parse_der_lax
// (pubkey.cpp), on encodings built around one known signature.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include <secp256k1.h>

#include "support/check_records.h"
#include "verify/ecdsa_lax_der.h"

namespace ibd {
namespace {

using test::Unhex;

// Wycheproof ecdsa_secp256k1_sha256_bitcoin tcId 2 ("valid"): strict DER, R with a 0x00 pad.
const std::string kR = "813ef79ccefa9a56f7ba805f0e478584fe5f0dd5f567bc09b5123ccbc9832365";
const std::string kS = "6ff18a52dcc0336f7af62400a6dd9b810732baf1ff758000d6f613a556eb31ba";
const std::string kDer = "3045" "022100" + kR + "0220" + kS;
// secp256k1 group order n.
const std::string kN = "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141";
const std::string kZero64(128, '0');

/** Parses `hex` (copied into an exactly-sized heap buffer, so a sanitizer sees any overread)
 *  and returns the result and r||s as hex. */
struct Parsed {
    bool ok;
    std::string compact;
};
Parsed Parse(const std::string& hex) {
    const std::vector<uint8_t> der = Unhex(hex);
    secp256k1_ecdsa_signature sig;
    std::vector<uint8_t> heap(der);  // data() is null when empty: also covered
    const bool ok = EcdsaSignatureParseDerLax(heap.data(), heap.size(), &sig);
    uint8_t out[64];
    secp256k1_ecdsa_signature_serialize_compact(secp256k1_context_static, out, &sig);
    static const char* kDigits = "0123456789abcdef";
    std::string compact;
    for (uint8_t b : out) {
        compact += kDigits[b >> 4];
        compact += kDigits[b & 15];
    }
    return {ok, compact};
}

TEST(EcdsaLaxDer, StrictDerMatchesLibsecp256k1) {
    const Parsed p = Parse(kDer);
    EXPECT_TRUE(p.ok);
    EXPECT_EQ(p.compact, kR + kS);
    // The strict parser agrees on strict DER.
    const auto der = Unhex(kDer);
    secp256k1_ecdsa_signature strict;
    ASSERT_TRUE(secp256k1_ecdsa_signature_parse_der(secp256k1_context_static, &strict, der.data(), der.size()));
    uint8_t out[64];
    secp256k1_ecdsa_signature_serialize_compact(secp256k1_context_static, out, &strict);
    EXPECT_EQ(std::vector<uint8_t>(out, out + 64), Unhex(kR + kS));
}

// Format violations Core tolerates (BER and worse): each yields the same (r, s).
TEST(EcdsaLaxDer, AcceptsCoreViolations) {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"long-form sequence length", "308145" "022100" + kR + "0220" + kS},
        {"sequence length 0x84 + 4 bytes skipped", "308400000045" "022100" + kR + "0220" + kS},
        {"sequence length wrong (short form ignored)", "3000" "022100" + kR + "0220" + kS},
        {"sequence length 0x7f", "307f" "022100" + kR + "0220" + kS},
        {"long-form R length", "3046" "028121" "00" + kR + "0220" + kS},
        {"R length with leading zero length bytes", "3049" "02840000002100" + kR + "0220" + kS},
        {"long-form S length", "3046" "022100" + kR + "028120" + kS},
        {"extra zero padding in R", "3046" "02220000" + kR + "0220" + kS},
        {"negative R (no 0x00 pad)", "3044" "0220" + kR + "0220" + kS},
        {"extra zero padding in S", "3047" "022100" + kR + "02220000" + kS},
        {"garbage after S", "3045" "022100" + kR + "0220" + kS + "0500deadbeef"},
        {"sequence shorter than content", "3006" "022100" + kR + "0220" + kS},
    };
    for (const auto& [name, hex] : cases) {
        const Parsed p = Parse(hex);
        EXPECT_TRUE(p.ok) << name;
        EXPECT_EQ(p.compact, kR + kS) << name;
        // libsecp256k1's strict parser does not get this (r, s): it rejects the encoding, or (for
        // the negative R) reads R as an overflow, i.e. r = 0.
        const auto der = Unhex(hex);
        secp256k1_ecdsa_signature strict;
        uint8_t out[64] = {0};
        if (secp256k1_ecdsa_signature_parse_der(secp256k1_context_static, &strict, der.data(), der.size())) {
            secp256k1_ecdsa_signature_serialize_compact(secp256k1_context_static, out, &strict);
            EXPECT_EQ(std::vector<uint8_t>(out, out + 64), Unhex(std::string(64, '0') + kS)) << name;
        }
    }
}

// Structures Core rejects (returns 0): the signature is left as (0, 0).
TEST(EcdsaLaxDer, RejectsBrokenStructure) {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"empty", ""},
        {"wrong sequence tag", "3145" "022100" + kR + "0220" + kS},
        {"sequence tag only", "30"},
        {"sequence header only", "3045"},
        {"long-form sequence length past the end", "3085" "02020101"},
        {"R tag missing", "3045" "032100" + kR + "0220" + kS},
        {"R length byte missing", "304502"},
        {"R past the end", "3045" "022100" + kR.substr(0, 62)},
        {"R long-form count past the end", "3045" "0284000000"},
        {"R length of 4 significant bytes", "3045" "028401000000" + kR + "0220" + kS},
        {"R length of 3 bytes past the end", "3045" "0283010000" + std::string(20, '0')},
        {"S tag missing", "3045" "022100" + kR},
        {"S wrong tag", "3045" "022100" + kR + "0320" + kS},
        {"S length byte missing", "3045" "022100" + kR + "02"},
        {"S past the end", "3045" "022100" + kR + "0221" + kS},
        {"S long-form count past the end", "3045" "022100" + kR + "0282"},
    };
    for (const auto& [name, hex] : cases) {
        const Parsed p = Parse(hex);
        EXPECT_FALSE(p.ok) << name;
        EXPECT_EQ(p.compact, kZero64) << name;
    }
}

// Integers that do not fit: Core "parses" them as (0, 0), which never verifies.
TEST(EcdsaLaxDer, OverflowBecomesZeroSignature) {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"R of 33 significant bytes", "3046" "022101" + kR + "0220" + kS},
        {"S of 33 significant bytes", "3046" "022100" + kR + "022101" + kS},
        {"R == n", "3044" "0220" + kN + "0220" + kS},
        {"S == n", "3045" "022100" + kR + "022100" + kN},
        {"R == 2^256 - 1", "3045" "022100" + std::string(64, 'f') + "0220" + kS},
    };
    for (const auto& [name, hex] : cases) {
        const Parsed p = Parse(hex);
        EXPECT_TRUE(p.ok) << name;
        EXPECT_EQ(p.compact, kZero64) << name;
    }
}

TEST(EcdsaLaxDer, EdgeValuesInRange) {
    const std::string n_minus_1 = kN.substr(0, 63) + "0";
    // R = n - 1 is in range; R and S of zero length are the integer 0, accepted by the parser.
    EXPECT_EQ(Parse("3045" "022100" + n_minus_1 + "0220" + kS).compact, n_minus_1 + kS);
    const Parsed empty_ints = Parse("3004" "0200" "0200");
    EXPECT_TRUE(empty_ints.ok);
    EXPECT_EQ(empty_ints.compact, kZero64);
    const Parsed small = Parse("3006" "020101" "020102");
    EXPECT_TRUE(small.ok);
    EXPECT_EQ(small.compact, std::string(62, '0') + "01" + std::string(62, '0') + "02");
    // 32 significant bytes after 40 bytes of zero padding.
    EXPECT_EQ(Parse("3070" "024800" + std::string(78, '0') + kR + "0220" + kS).compact, kR + kS);
}

TEST(EcdsaLaxDer, NullInputIsRejected) {
    secp256k1_ecdsa_signature sig;
    EXPECT_FALSE(EcdsaSignatureParseDerLax(nullptr, 0, &sig));
    EXPECT_FALSE(EcdsaSignatureParseDerLax(nullptr, 5, &sig));
}

}  // namespace
}  // namespace ibd
