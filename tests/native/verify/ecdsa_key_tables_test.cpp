// ECDSA verification with a recurring key's precomputed tables (native/secp256k1/ecdsa_key_tables.h)
// must give secp256k1_ecdsa_verify's verdict on every input: real fixture signatures, each also
// tampered four ways, then synthetic signatures (labelled as such: unit tests of the
// multiplication) made with libsecp256k1's signer over random keys and at the scalars' edges.
// The Wycheproof vectors go through the same comparison in wycheproof_test.cpp.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

#include <secp256k1.h>

#include "secp256k1/ecdsa_key_tables.h"
#include "support/check_records.h"
#include "support/test_support.h"
#include "verify/batch_verify.h"
#include "verify/ecdsa_lax_der.h"

namespace ibd {
namespace {

using Bytes = std::vector<uint8_t>;

/** A parsed key and its tables. */
struct Key {
    secp256k1_pubkey parsed;
    ibd_ecdsa_key_tables tables;
};

bool ParseKey(const uint8_t* bytes, size_t len, Key* out) {
    if (!secp256k1_ec_pubkey_parse(secp256k1_context_static, &out->parsed, bytes, len)) return false;
    EXPECT_EQ(ibd_ecdsa_key_tables_build(&out->tables, &out->parsed), 1);
    return true;
}

/** Both verdicts of (sig, msg32, key): the library's, then the tables'. */
std::array<int, 2> Verdicts(const secp256k1_ecdsa_signature& sig, const uint8_t* msg32, const Key& key) {
    return {secp256k1_ecdsa_verify(secp256k1_context_static, &sig, msg32, &key.parsed),
            ibd_ecdsa_verify_key_tables(&sig, msg32, &key.tables)};
}

/** The signature with its compact (r || s) bytes changed by `edit`, low-S normalized as Core does. */
template <typename F>
secp256k1_ecdsa_signature Edited(const secp256k1_ecdsa_signature& sig, F edit) {
    uint8_t compact[64];
    secp256k1_ecdsa_signature_serialize_compact(secp256k1_context_static, compact, &sig);
    edit(compact);
    secp256k1_ecdsa_signature out;
    if (!secp256k1_ecdsa_signature_parse_compact(secp256k1_context_static, &out, compact)) {
        std::memset(compact, 0, 64);  // r or s >= n: what the lax parser makes of it (all zero)
        EXPECT_EQ(secp256k1_ecdsa_signature_parse_compact(secp256k1_context_static, &out, compact), 1);
    }
    secp256k1_ecdsa_signature_normalize(secp256k1_context_static, &out, &out);
    return out;
}

/** s := n - s, 32 big-endian bytes, s in 1..n-1 (a low S becomes the high S of the same signature). */
void NegateModN(uint8_t* s) {
    static const uint8_t n[32] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe,
                                  0xba, 0xae, 0xdc, 0xe6, 0xaf, 0x48, 0xa0, 0x3b, 0xbf, 0xd2, 0x5e, 0x8c, 0xd0, 0x36, 0x41, 0x41};
    int borrow = 0;
    for (int i = 31; i >= 0; --i) {
        const int d = n[i] - s[i] - borrow;
        s[i] = static_cast<uint8_t>(d & 0xff);
        borrow = d < 0;
    }
}

class EcdsaKeyTables : public ::testing::Test {
protected:
    static void SetUpTestSuite() { ASSERT_EQ(ibd_ecdsa_key_tables_init(), 1); }
};

// Every ECDSA check of six fixture blocks from 2009 to 2022 (uncompressed and compressed keys,
// multisig trials that fail), as given and tampered: a message bit flipped, s + 1, r taken from
// the previous signature, the previous signature's key.
TEST_F(EcdsaKeyTables, FixtureSignaturesGetTheLibrarysVerdict) {
    size_t checks = 0, valid = 0, compared = 0;
    for (int32_t height : {170, 24835, 210000, 300025, 403200, 757739}) {
        const test::FixtureBlock f = test::LoadFixtureBlock(height);
        const BlockValidationResult r = ValidateBlock(f.raw.data(), f.raw.size(), f.spent, f.hash, f.height);
        Key prev_key{};
        secp256k1_ecdsa_signature prev_sig{};
        bool have_prev = false;
        test::ForEachRecord(r.checks, r.verdicts.size(), [&](const test::RecordView& v, size_t i) {
            if (v.type != static_cast<uint8_t>(CheckType::kEcdsa)) return;
            Key key{};
            secp256k1_ecdsa_signature sig;
            if (!ParseKey(v.pubkey, v.pubkey_len, &key) || !EcdsaSignatureParseDerLax(v.sig, v.sig_len, &sig)) return;
            secp256k1_ecdsa_signature_normalize(secp256k1_context_static, &sig, &sig);
            ++checks;
            const auto given = Verdicts(sig, v.msg32, key);
            EXPECT_EQ(given[0], given[1]) << "block " << height << " check " << i;
            EXPECT_EQ(given[1], r.verdicts[i]) << "block " << height << " check " << i;
            valid += given[1];
            uint8_t msg[32];
            std::memcpy(msg, v.msg32, 32);
            msg[i % 32] ^= static_cast<uint8_t>(1u << (i % 8));
            const secp256k1_ecdsa_signature s_plus_1 = Edited(sig, [](uint8_t* c) {
                for (int b = 63; b >= 32 && ++c[b] == 0; --b) {}
            });
            std::vector<std::array<int, 2>> tampered = {Verdicts(sig, msg, key), Verdicts(s_plus_1, v.msg32, key)};
            if (have_prev) {
                uint8_t prev_compact[64];
                secp256k1_ecdsa_signature_serialize_compact(secp256k1_context_static, prev_compact, &prev_sig);
                tampered.push_back(Verdicts(Edited(sig, [&](uint8_t* c) { std::memcpy(c, prev_compact, 32); }), v.msg32, key));
                tampered.push_back(Verdicts(sig, v.msg32, prev_key));
            }
            for (size_t t = 0; t < tampered.size(); ++t) {
                EXPECT_EQ(tampered[t][0], tampered[t][1]) << "block " << height << " check " << i << " tampering " << t;
                ++compared;
            }
            prev_key = key;
            prev_sig = sig;
            have_prev = true;
        });
    }
    EXPECT_EQ(checks, 3824u);     // the six blocks' ECDSA checks whose key and signature parse
    EXPECT_EQ(valid, 3699u);      // the tables verify real signatures (the rest: multisig trials) ...
    EXPECT_EQ(compared, 15284u);  // ... and each was also compared tampered
}

/** splitmix64: the synthetic cases' deterministic source. */
struct Rng {
    uint64_t s;
    uint64_t Next() {
        uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    void Fill(uint8_t* out, size_t n) {
        for (size_t i = 0; i < n; ++i) out[i] = static_cast<uint8_t>(Next());
    }
};

// Synthetic (unit test of the multiplication): 64 random keys, 16 signatures each from
// libsecp256k1's signer (u2's two halves take every sign), each also with S high (not normalized:
// rejected, as secp256k1_ecdsa_verify rejects it), and with s, r and the message at
// the scalars' edges: 0 and 1, n - 1 (high S, normalized), 2^64 - 1, 2^64 and 2^128 (the chunks' edges),
// a zero message (u1 = 0) and one equal to n (reduced to 0).
TEST_F(EcdsaKeyTables, SyntheticSignaturesAndEdgeScalars) {
    secp256k1_context* ctx = secp256k1_context_create(SECP256K1_CONTEXT_NONE);
    Rng rng{0x1bd0ecd5a};
    const Bytes n = test::Unhex("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141");
    const Bytes n_minus_1 = test::Unhex("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364140");
    auto small = [](int at_byte, uint8_t v) {
        Bytes b(32, 0);
        b[at_byte] = v;
        return b;
    };
    const std::vector<Bytes> edges = {small(31, 0), small(31, 1), n_minus_1, small(23, 1), small(15, 1), n};
    Bytes ones64(32, 0);
    std::memset(ones64.data() + 24, 0xff, 8);  // 2^64 - 1
    size_t valid = 0, total = 0;
    for (int k = 0; k < 64; ++k) {
        uint8_t seckey[32];
        do rng.Fill(seckey, 32);
        while (!secp256k1_ec_seckey_verify(ctx, seckey));
        secp256k1_pubkey pub;
        ASSERT_EQ(secp256k1_ec_pubkey_create(ctx, &pub, seckey), 1);
        uint8_t ser[65];
        size_t ser_len = 65;
        secp256k1_ec_pubkey_serialize(ctx, ser, &ser_len, &pub, k % 2 ? SECP256K1_EC_COMPRESSED : SECP256K1_EC_UNCOMPRESSED);
        Key key{};
        ASSERT_TRUE(ParseKey(ser, ser_len, &key));
        for (int m = 0; m < 16; ++m) {
            uint8_t msg[32];
            rng.Fill(msg, 32);
            secp256k1_ecdsa_signature sig;
            ASSERT_EQ(secp256k1_ecdsa_sign(ctx, &sig, msg, seckey, nullptr, nullptr), 1);
            auto v = Verdicts(sig, msg, key);
            EXPECT_EQ(v[0], 1);
            EXPECT_EQ(v[1], 1) << "key " << k << " message " << m;
            valid += v[1];
            ++total;
            // The same signature with S high (n - s), not normalized: both reject it.
            uint8_t compact[64];
            secp256k1_ecdsa_signature_serialize_compact(ctx, compact, &sig);
            NegateModN(compact + 32);
            secp256k1_ecdsa_signature high_s;
            ASSERT_EQ(secp256k1_ecdsa_signature_parse_compact(ctx, &high_s, compact), 1);
            v = Verdicts(high_s, msg, key);
            EXPECT_EQ(v, (std::array<int, 2>{0, 0})) << "key " << k << " message " << m << ": high S";
            ++total;
            std::vector<Bytes> edge_values = edges;
            edge_values.push_back(ones64);
            for (const Bytes& e : edge_values) {
                for (int field = 0; field < 3; ++field) {  // s, r, message
                    secp256k1_ecdsa_signature edited = sig;
                    uint8_t msg2[32];
                    std::memcpy(msg2, msg, 32);
                    if (field == 2) std::memcpy(msg2, e.data(), 32);
                    else edited = Edited(sig, [&](uint8_t* c) { std::memcpy(c + (field == 0 ? 32 : 0), e.data(), 32); });
                    v = Verdicts(edited, msg2, key);
                    EXPECT_EQ(v[0], v[1]) << "key " << k << " message " << m << " field " << field;
                    ++total;
                }
            }
        }
    }
    EXPECT_EQ(valid, 64u * 16u);
    EXPECT_EQ(total, 64u * 16u * (2 + 7 * 3));
    secp256k1_context_destroy(ctx);
}

// Through VerifyBatch (its key cache gives a key tables from its second signature on): block
// 553,724's checks, which reuse keys, with every third record's message tampered, keep the
// verdicts single verification gives each record.
TEST_F(EcdsaKeyTables, RecurringKeysInVerifyBatchKeepEachRecordsVerdict) {
    const test::FixtureBlock f = test::LoadFixtureBlock(300025);
    const BlockValidationResult r = ValidateBlock(f.raw.data(), f.raw.size(), f.spent, f.hash, f.height);
    Bytes buf;
    std::vector<uint8_t> want;
    size_t tampered = 0;
    for (int pass = 0; pass < 2; ++pass) {  // the second pass finds every key in the cache
        test::ForEachRecord(r.checks, r.verdicts.size(), [&](const test::RecordView& v, size_t i) {
            if (v.type != static_cast<uint8_t>(CheckType::kEcdsa)) return;
            Bytes msg(v.msg32, v.msg32 + 32);
            const bool tamper = (i + pass) % 3 == 0;
            if (tamper) msg[7] ^= 0x10;
            test::AppendEcdsa(buf, msg, Bytes(v.pubkey, v.pubkey + v.pubkey_len), Bytes(v.sig, v.sig + v.sig_len));
            want.push_back(tamper ? 0 : r.verdicts[i]);
            tampered += tamper;
        });
    }
    ASSERT_GT(tampered, 100u);
    std::vector<uint8_t> got(want.size(), 0xee);
    EXPECT_EQ(VerifyBatch(buf.data(), buf.size(), static_cast<uint32_t>(want.size()), got.data()).error, 0);
    EXPECT_EQ(got, want);
}

}  // namespace
}  // namespace ibd
