// VerifyBatch (native/verify/batch_verify.h): verdicts of known signatures, the effect of single bit
// flips, and the BatchStatus of malformed buffers.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "support/check_records.h"
#include "verify/batch_verify.h"

namespace ibd {
namespace {

using test::Unhex;
using Bytes = std::vector<uint8_t>;

// ECDSA: Wycheproof ecdsa_secp256k1_sha256_bitcoin, first group's key, tcId 2 ("valid") and
// tcId 1 (its high-S twin, invalid for Wycheproof's bitcoin variant, valid for Core which
// normalizes). msg32 = SHA-256("123400") (msg "313233343030").
const Bytes kEcdsaMsg = Unhex("bb5a52f42f9c9261ed4361f59422a1e30036e7c32b270c8807a419feca605023");
const std::string kEcdsaX = "b838ff44e5bc177bf21189d0766082fc9d843226887fc9760371100b7ee20a6f";
const std::string kEcdsaY = "f0c9d75bfba7b31a6bca1974496eeb56de357071955d83c4b1badaa0b21832e9";  // odd
const Bytes kEcdsaPubUncompressed = Unhex("04" + kEcdsaX + kEcdsaY);
const Bytes kEcdsaPubCompressed = Unhex("03" + kEcdsaX);
const Bytes kEcdsaPubHybridOdd = Unhex("07" + kEcdsaX + kEcdsaY);   // hybrid, parity right
const Bytes kEcdsaPubHybridEven = Unhex("06" + kEcdsaX + kEcdsaY);  // hybrid, parity wrong
const Bytes kEcdsaSig = Unhex(
    "3045022100813ef79ccefa9a56f7ba805f0e478584fe5f0dd5f567bc09b5123ccbc9832365"
    "02206ff18a52dcc0336f7af62400a6dd9b810732baf1ff758000d6f613a556eb31ba");
const Bytes kEcdsaSigHighS = Unhex(
    "3046022100813ef79ccefa9a56f7ba805f0e478584fe5f0dd5f567bc09b5123ccbc9832365"
    "022100900e75ad233fcc908509dbff5922647db37c21f4afd3203ae8dc4ae7794b0f87");
// In kEcdsaSig: R's 32 bytes start at 5, S's 32 bytes at 39.
constexpr size_t kEcdsaRBegin = 5, kEcdsaSBegin = 39;

// Schnorr: BIP340 test vectors 1 and 2 (valid).
const Bytes kSchnorrPub1 = Unhex("dff1d77f2a671c5f36183726db2341be58feae1da2deced843240f7b502ba659");
const Bytes kSchnorrMsg1 = Unhex("243f6a8885a308d313198a2e03707344a4093822299f31d0082efa98ec4e6c89");
const Bytes kSchnorrSig1 = Unhex(
    "6896bd60eeae296db48a229ff71dfe071bde413e6d43f917dc8dcf8c78de3341"
    "8906d11ac976abccb20b091292bff4ea897efcb639ea871cfa95f6de339e4b0a");
const Bytes kSchnorrPub2 = Unhex("dd308afec5777e13121fa72b9cc1b7cc0139715309b086c960e18fd969774eb8");
const Bytes kSchnorrMsg2 = Unhex("7e2d58d8b3bcdf1abadec7829054f90dda9805aab56c77333024b9d0a508b75c");
const Bytes kSchnorrSig2 = Unhex(
    "5831aaeed7b44bb74e5eab94ba9d4294c49bcf2a60728d8b4c200f50dd313c1b"
    "ab745879a5ad954a72c45a91c3a51d3c7adea98d82f8481e0e1e03674a6f3fb7");

constexpr uint8_t kValid = static_cast<uint8_t>(Verdict::kValid);
constexpr uint8_t kInvalid = static_cast<uint8_t>(Verdict::kInvalid);
constexpr uint8_t kUnwritten = 0xAA;  // sentinel for verdict bytes VerifyBatch must not touch

struct BatchRun {
    BatchStatus status;
    Bytes verdicts;  // `count` bytes, then one sentinel byte that must stay untouched
};

/** Runs VerifyBatch on an exactly-sized heap copy of `buf` (a sanitizer sees any overread). */
BatchRun Verify(const Bytes& buf, uint32_t count) {
    Bytes heap(buf);
    BatchRun r;
    r.verdicts.assign(count + 1, kUnwritten);
    r.status = VerifyBatch(heap.data(), heap.size(), count, r.verdicts.data());
    EXPECT_EQ(r.verdicts.back(), kUnwritten) << "wrote past `count` verdicts";
    r.verdicts.pop_back();
    return r;
}

size_t RecordSize(const Bytes& pubkey, const Bytes& sig) { return kCheckHeaderSize + pubkey.size() + sig.size(); }

TEST(BatchVerify, KnownSignatures) {
    Bytes buf;
    test::AppendEcdsa(buf, kEcdsaMsg, kEcdsaPubUncompressed, kEcdsaSig);
    test::AppendSchnorr(buf, kSchnorrMsg1, kSchnorrPub1, kSchnorrSig1);
    test::AppendEcdsa(buf, kEcdsaMsg, kEcdsaPubCompressed, kEcdsaSig);
    test::AppendEcdsa(buf, kEcdsaMsg, kEcdsaPubHybridOdd, kEcdsaSig);   // libsecp256k1 accepts 07/odd
    test::AppendEcdsa(buf, kEcdsaMsg, kEcdsaPubHybridEven, kEcdsaSig);  // 06 with odd y: no key
    test::AppendEcdsa(buf, kEcdsaMsg, kEcdsaPubUncompressed, kEcdsaSigHighS);  // Core normalizes
    test::AppendSchnorr(buf, kSchnorrMsg2, kSchnorrPub2, kSchnorrSig2);
    test::AppendSchnorr(buf, kSchnorrMsg1, kSchnorrPub2, kSchnorrSig2);  // wrong message
    test::AppendEcdsa(buf, kSchnorrMsg1, kEcdsaPubUncompressed, kEcdsaSig);  // wrong message
    const BatchRun r = Verify(buf, 9);
    EXPECT_EQ(r.status.error, 0);
    EXPECT_EQ(r.verdicts, (Bytes{kValid, kValid, kValid, kValid, kInvalid, kValid, kValid, kInvalid, kInvalid}));
}

// The parsed-key cache (batch_verify.cpp ParsedKeyCache) keys on the whole key as given: the
// same x under every header byte, each twice and interleaved, shares one cache slot and still
// gets its own verdict; a key that does not parse (06 with an odd y) never takes a slot's answer.
TEST(BatchVerify, KeysSharingACacheSlotKeepTheirOwnVerdicts) {
    Bytes buf;
    std::vector<uint8_t> want;
    for (int round = 0; round < 2; ++round) {
        for (const Bytes* key : {&kEcdsaPubHybridOdd, &kEcdsaPubHybridEven, &kEcdsaPubCompressed, &kEcdsaPubHybridEven,
                                 &kEcdsaPubUncompressed}) {
            test::AppendEcdsa(buf, kEcdsaMsg, *key, kEcdsaSig);
            want.push_back(key == &kEcdsaPubHybridEven ? kInvalid : kValid);
        }
        Bytes even_x = kEcdsaPubCompressed;  // the same x as the even-y point: the wrong key
        even_x[0] = 0x02;
        test::AppendEcdsa(buf, kEcdsaMsg, even_x, kEcdsaSig);
        want.push_back(kInvalid);
    }
    const BatchRun r = Verify(buf, static_cast<uint32_t>(want.size()));
    EXPECT_EQ(r.status.error, 0);
    EXPECT_EQ(r.verdicts, Bytes(want.begin(), want.end()));
}

TEST(BatchVerify, EmptyBatch) {
    uint8_t sentinel = kUnwritten;
    EXPECT_EQ(VerifyBatch(nullptr, 0, 0, &sentinel).error, 0);
    EXPECT_EQ(sentinel, kUnwritten);
}

// Keys and signatures that do not parse are kInvalid verdicts, never batch errors.
TEST(BatchVerify, UnparseableKeysAndSignaturesAreVerdicts) {
    Bytes buf;
    test::AppendEcdsa(buf, kEcdsaMsg, {}, kEcdsaSig);                         // pubkey_len 0
    test::AppendEcdsa(buf, kEcdsaMsg, Bytes(64, 0x04), kEcdsaSig);            // pubkey_len 64
    test::AppendEcdsa(buf, kEcdsaMsg, Bytes(255, 0x02), kEcdsaSig);           // pubkey_len 255
    test::AppendEcdsa(buf, kEcdsaMsg, Unhex("02" + std::string(64, 'f')), kEcdsaSig);  // x >= p
    test::AppendEcdsa(buf, kEcdsaMsg, kEcdsaPubUncompressed, {});            // sig_len 0
    test::AppendEcdsa(buf, kEcdsaMsg, kEcdsaPubUncompressed, Bytes(520, 0x30));  // sig_len 520
    test::AppendSchnorr(buf, kSchnorrMsg1, Bytes(32, 0xff), kSchnorrSig1);    // x >= p
    test::AppendSchnorr(buf, kSchnorrMsg1, kSchnorrPub1, Bytes(64, 0xff));    // r >= p, s >= n
    test::AppendEcdsa(buf, kEcdsaMsg, kEcdsaPubUncompressed, kEcdsaSig);     // still valid after all
    const BatchRun r = Verify(buf, 9);
    EXPECT_EQ(r.status.error, 0);
    EXPECT_EQ(r.verdicts, (Bytes{0, 0, 0, 0, 0, 0, 0, 0, kValid}));
}

/** Builds [schnorr1, ecdsa, schnorr2] and returns the offsets of each record. */
Bytes ThreeRecords(std::vector<size_t>* offsets) {
    Bytes buf;
    offsets->clear();
    offsets->push_back(buf.size());
    test::AppendSchnorr(buf, kSchnorrMsg1, kSchnorrPub1, kSchnorrSig1);
    offsets->push_back(buf.size());
    test::AppendEcdsa(buf, kEcdsaMsg, kEcdsaPubUncompressed, kEcdsaSig);
    offsets->push_back(buf.size());
    test::AppendSchnorr(buf, kSchnorrMsg2, kSchnorrPub2, kSchnorrSig2);
    return buf;
}

// Flipping one bit of the message, the key or the signature value of one record turns that
// record's verdict to kInvalid and leaves the others kValid. Every byte is tried (bit i % 8).
TEST(BatchVerify, OneFlippedBitFlipsOnlyThatRecord) {
    std::vector<size_t> at;
    const Bytes base = ThreeRecords(&at);
    ASSERT_EQ(Verify(base, 3).verdicts, (Bytes{kValid, kValid, kValid}));

    struct Field {
        const char* name;
        int record;
        size_t begin, size;  // byte range within the buffer
    };
    const size_t ecdsa_pk = at[1] + kCheckHeaderSize, ecdsa_sig = ecdsa_pk + 65;
    const std::vector<Field> fields = {
        {"schnorr msg32", 0, at[0] + 4, 32},
        {"schnorr pubkey", 0, at[0] + kCheckHeaderSize, 32},
        {"schnorr sig", 0, at[0] + kCheckHeaderSize + 32, 64},
        {"ecdsa msg32", 1, at[1] + 4, 32},
        {"ecdsa pubkey x,y", 1, ecdsa_pk + 1, 64},  // byte 0 is the 0x04 header, see below
        {"ecdsa sig R", 1, ecdsa_sig + kEcdsaRBegin, 32},
        {"ecdsa sig S", 1, ecdsa_sig + kEcdsaSBegin, 32},
        {"schnorr2 msg32", 2, at[2] + 4, 32},
        {"schnorr2 pubkey", 2, at[2] + kCheckHeaderSize, 32},
        {"schnorr2 sig", 2, at[2] + kCheckHeaderSize + 32, 64},
    };
    int flips = 0;
    for (const Field& f : fields) {
        for (size_t i = 0; i < f.size; ++i) {
            Bytes buf = base;
            buf[f.begin + i] ^= static_cast<uint8_t>(1u << (i % 8));
            Bytes expected{kValid, kValid, kValid};
            expected[f.record] = kInvalid;
            const BatchRun r = Verify(buf, 3);
            ASSERT_EQ(r.status.error, 0);
            EXPECT_EQ(r.verdicts, expected) << f.name << " byte " << i;
            ++flips;
        }
    }
    EXPECT_EQ(flips, 32 + 32 + 64 + 32 + 64 + 32 + 32 + 32 + 32 + 64);
}

// Bits of the DER framing and of the key header are another matter: some flips are absorbed by
// Core's rules, and VerifyBatch must absorb exactly those.
TEST(BatchVerify, FlipsCoreToleratesInFraming) {
    std::vector<size_t> at;
    const Bytes base = ThreeRecords(&at);
    const size_t ecdsa_pk = at[1] + kCheckHeaderSize, ecdsa_sig = ecdsa_pk + 65;
    auto verdict_after = [&](size_t pos, uint8_t mask) {
        Bytes buf = base;
        buf[pos] ^= mask;
        const BatchRun r = Verify(buf, 3);
        EXPECT_EQ(r.status.error, 0);
        EXPECT_EQ(r.verdicts[0], kValid);
        EXPECT_EQ(r.verdicts[2], kValid);
        return r.verdicts[1];
    };
    // DER sequence length 0x45: a short-form value is ignored by the lax parser...
    EXPECT_EQ(verdict_after(ecdsa_sig + 1, 0x01), kValid);
    EXPECT_EQ(verdict_after(ecdsa_sig + 1, 0x40), kValid);
    // ...but 0xC5 is long form announcing 69 length bytes, past the end.
    EXPECT_EQ(verdict_after(ecdsa_sig + 1, 0x80), kInvalid);
    // Sequence tag 0x30 and integer tags 0x02 are checked.
    EXPECT_EQ(verdict_after(ecdsa_sig + 0, 0x01), kInvalid);
    EXPECT_EQ(verdict_after(ecdsa_sig + 2, 0x01), kInvalid);
    EXPECT_EQ(verdict_after(ecdsa_sig + 37, 0x01), kInvalid);
    // R's 0x00 pad becoming 0x01 changes R.
    EXPECT_EQ(verdict_after(ecdsa_sig + 4, 0x01), kInvalid);
    // Key header 0x04 -> 0x07: hybrid with the right parity (y is odd), still the same key.
    EXPECT_EQ(verdict_after(ecdsa_pk, 0x03), kValid);
    // 0x04 -> 0x06: hybrid with the wrong parity; 0x04 -> 0x05: no such header.
    EXPECT_EQ(verdict_after(ecdsa_pk, 0x02), kInvalid);
    EXPECT_EQ(verdict_after(ecdsa_pk, 0x01), kInvalid);
}

// Malformed records stop the batch at the right record and offset; earlier verdicts are kept
// and later ones are kInvalid.
TEST(BatchVerify, UnknownType) {
    for (uint8_t type : {uint8_t{0}, uint8_t{3}, uint8_t{0xff}}) {
        std::vector<size_t> at;
        Bytes buf = ThreeRecords(&at);
        const size_t bad = buf.size();
        test::AppendRecord(buf, type, kSchnorrMsg1, kSchnorrPub1, kSchnorrSig1);
        test::AppendSchnorr(buf, kSchnorrMsg1, kSchnorrPub1, kSchnorrSig1);
        const BatchRun r = Verify(buf, 5);
        EXPECT_EQ(r.status.error, 2) << int(type);
        EXPECT_EQ(r.status.error_offset, bad);
        EXPECT_EQ(r.status.error_record, 3u);
        EXPECT_EQ(r.verdicts, (Bytes{kValid, kValid, kValid, kInvalid, kInvalid}));
    }
}

TEST(BatchVerify, BadLengths) {
    Bytes sig65 = kSchnorrSig1;
    sig65.push_back(0x01);  // a hash_type byte left in
    struct Case {
        const char* name;
        uint8_t type;
        Bytes pubkey, sig;
        size_t claimed_sig_len;  // written over sig_len when non-zero, with that many bytes present
    };
    const std::vector<Case> cases = {
        {"schnorr pubkey_len 33", 2, Unhex("02" + std::string(64, '1')), kSchnorrSig1, 0},
        {"schnorr pubkey_len 0", 2, {}, kSchnorrSig1, 0},
        {"schnorr sig_len 65", 2, kSchnorrPub1, sig65, 0},
        {"schnorr sig_len 0", 2, kSchnorrPub1, {}, 0},
        {"ecdsa sig_len 521", 1, kEcdsaPubCompressed, Bytes(521, 0x30), 0},
        {"ecdsa sig_len 65535", 1, kEcdsaPubCompressed, {}, 65535},
    };
    for (const Case& k : cases) {
        std::vector<size_t> at;
        Bytes buf = ThreeRecords(&at);
        const size_t bad = buf.size();
        test::AppendRecord(buf, k.type, kSchnorrMsg1, k.pubkey, k.sig);
        if (k.claimed_sig_len != 0) {  // the bytes are there: only the length is wrong
            buf[bad + 2] = static_cast<uint8_t>(k.claimed_sig_len & 0xff);
            buf[bad + 3] = static_cast<uint8_t>(k.claimed_sig_len >> 8);
            buf.resize(buf.size() + k.claimed_sig_len, 0x30);
        }
        const BatchRun r = Verify(buf, 4);
        EXPECT_EQ(r.status.error, 3) << k.name;
        EXPECT_EQ(r.status.error_offset, bad) << k.name;
        EXPECT_EQ(r.status.error_record, 3u) << k.name;
        EXPECT_EQ(r.verdicts, (Bytes{kValid, kValid, kValid, kInvalid})) << k.name;
    }
}

TEST(BatchVerify, Truncated) {
    std::vector<size_t> at;
    const Bytes full = ThreeRecords(&at);
    // Cut inside the header, at the header's end, and one byte before the end, of record 2.
    for (size_t cut : {at[2] + 1, at[2] + 35, at[2] + 36, full.size() - 1}) {
        const Bytes buf(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(cut));
        const BatchRun r = Verify(buf, 3);
        EXPECT_EQ(r.status.error, 1) << "cut at " << cut;
        EXPECT_EQ(r.status.error_offset, at[2]);
        EXPECT_EQ(r.status.error_record, 2u);
        EXPECT_EQ(r.verdicts, (Bytes{kValid, kValid, kInvalid}));
    }
    // `count` larger than the records present: the missing record is truncated at the end.
    const BatchRun more = Verify(full, 4);
    EXPECT_EQ(more.status.error, 1);
    EXPECT_EQ(more.status.error_offset, full.size());
    EXPECT_EQ(more.status.error_record, 3u);
    EXPECT_EQ(more.verdicts, (Bytes{kValid, kValid, kValid, kInvalid}));
    // The first record is already truncated: nothing is verified.
    const BatchRun none = Verify(Bytes(full.begin(), full.begin() + 10), 3);
    EXPECT_EQ(none.status.error, 1);
    EXPECT_EQ(none.status.error_offset, 0u);
    EXPECT_EQ(none.status.error_record, 0u);
    EXPECT_EQ(none.verdicts, (Bytes{kInvalid, kInvalid, kInvalid}));
    // An ECDSA pubkey_len pointing past the end.
    Bytes ecdsa;
    test::AppendEcdsa(ecdsa, kEcdsaMsg, kEcdsaPubUncompressed, kEcdsaSig);
    ecdsa[1] = 0xff;
    EXPECT_EQ(Verify(ecdsa, 1).status.error, 1);
}

// Only `count` records are read: bytes after them are ignored.
TEST(BatchVerify, BytesAfterCountAreNotRead) {
    std::vector<size_t> at;
    Bytes buf = ThreeRecords(&at);
    buf.push_back(0x77);  // not a record
    const BatchRun r = Verify(buf, 3);
    EXPECT_EQ(r.status.error, 0);
    EXPECT_EQ(r.verdicts, (Bytes{kValid, kValid, kValid}));
    const BatchRun two = Verify(buf, 2);
    EXPECT_EQ(two.status.error, 0);
    EXPECT_EQ(two.verdicts, (Bytes{kValid, kValid}));
}

TEST(BatchVerify, RecordSizesFollowTheLayout) {
    std::vector<size_t> at;
    const Bytes buf = ThreeRecords(&at);
    EXPECT_EQ(at[1], RecordSize(kSchnorrPub1, kSchnorrSig1));
    EXPECT_EQ(at[1], 36u + 32u + 64u);
    EXPECT_EQ(at[2] - at[1], 36u + 65u + 71u);
}

}  // namespace
}  // namespace ibd
