// Hostile input for BIP340 batch verification (native/secp256k1/schnorrsig_batch.h) and
// VerifyBatch's Schnorr groups (batch_verify.h): every record must get the verdict single
// verification gives it (secp256k1_xonly_pubkey_parse, then secp256k1_schnorrsig_verify), whatever
// it holds and wherever it sits. The bulk is the real Schnorr and ECDSA checks of fixture block
// 866,342; mixed into them are synthetic records (labelled as such: unit tests of the batch
// equation), made with a small BIP340 signer whose nonce the test chooses:
//   - R equal to the key (k = x), the same R in many signatures, one signature's R equal to
//     another's key: repeated and equal points inside one multi-scalar multiplication;
//   - an R of odd y (what a signer that forgets to negate k makes): single verification rejects
//     it, and so must the batch, whose lift_x(r) takes the even point;
//   - pairs whose s values are shifted by +d and -d: invalid, yet the plain sum of the
//     verification equations still holds, so only the randomizers make the batch fail;
//   - r, s and keys at the edges of their ranges (0, 1, p-1, p, n-1, n, all-0xFF).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include <secp256k1.h>
#include <secp256k1_extrakeys.h>
#include <secp256k1_schnorrsig.h>

#include "secp256k1/schnorrsig_batch.h"
#include "support/check_records.h"
#include "support/test_support.h"
#include "verify/batch_verify.h"

namespace ibd {
namespace {

using Bytes = std::vector<uint8_t>;

/** One check record's fields (check_buffer.h). */
struct Rec {
    uint8_t type = static_cast<uint8_t>(CheckType::kSchnorr);
    Bytes msg32, pubkey, sig;
};

const Bytes kP = test::Unhex("fffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f");
const Bytes kPMinus1 = test::Unhex("fffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2e");
const Bytes kN = test::Unhex("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141");
const Bytes kNMinus1 = test::Unhex("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364140");

Bytes Filled(uint8_t b) { return Bytes(32, b); }
Bytes Small(uint8_t v) {
    Bytes out(32, 0);
    out[31] = v;
    return out;
}

/** The real checks of fixture block 866,342, split by type (all valid: a valid mainnet block). */
struct FixtureRecs {
    std::vector<Rec> schnorr, ecdsa;
};

const FixtureRecs& Fixture() {
    static const FixtureRecs recs = [] {
        FixtureRecs out;
        const test::FixtureBlock f = test::LoadFixtureBlock(866342);
        const BlockValidationResult r = ValidateBlock(f.raw.data(), f.raw.size(), f.spent, f.hash, f.height);
        test::ForEachRecord(r.checks, r.verdicts.size(), [&](const test::RecordView& v, size_t i) {
            if (r.verdicts[i] != static_cast<uint8_t>(Verdict::kValid)) return;
            Rec x{v.type, {v.msg32, v.msg32 + 32}, {v.pubkey, v.pubkey + v.pubkey_len}, {v.sig, v.sig + v.sig_len}};
            (x.type == static_cast<uint8_t>(CheckType::kSchnorr) ? out.schnorr : out.ecdsa).push_back(std::move(x));
        });
        return out;
    }();
    return recs;
}

/** Single verification, as Bitcoin Core does it: the verdict every record must get. ECDSA
 *  records through VerifyBatch alone (one record, below any Schnorr group). */
bool SingleUncached(const Rec& r) {
    if (r.type == static_cast<uint8_t>(CheckType::kSchnorr)) {
        secp256k1_xonly_pubkey pk;
        return r.pubkey.size() == 32 && r.sig.size() == 64 && r.msg32.size() == 32 &&
               secp256k1_xonly_pubkey_parse(secp256k1_context_static, &pk, r.pubkey.data()) == 1 &&
               secp256k1_schnorrsig_verify(secp256k1_context_static, r.sig.data(), r.msg32.data(), 32, &pk) == 1;
    }
    Bytes buf;
    test::AppendRecord(buf, r.type, r.msg32, r.pubkey, r.sig);
    uint8_t verdict = 0xAA;
    EXPECT_EQ(VerifyBatch(buf.data(), buf.size(), 1, &verdict).error, 0);
    return verdict == static_cast<uint8_t>(Verdict::kValid);
}

/** One raw ibd_schnorrsig_verify_batch over `list` (no grouping, no fallback): 1 when every
 *  signature verifies, 0 otherwise. */
int RawBatch(secp256k1_scratch_space* scratch, const std::vector<Rec>& list) {
    std::vector<const unsigned char*> sig, msg, pk;
    for (const Rec& r : list) {
        sig.push_back(r.sig.data());
        msg.push_back(r.msg32.data());
        pk.push_back(r.pubkey.data());
    }
    return ibd_schnorrsig_verify_batch(secp256k1_context_static, scratch, sig.data(), msg.data(), pk.data(), list.size());
}

/** SingleUncached, remembered per record (the suites ask for the same records many times). */
bool Single(const Rec& r) {
    static std::map<std::string, bool> seen;
    std::string key(1, static_cast<char>(r.type));
    for (const Bytes* part : {&r.msg32, &r.pubkey, &r.sig}) {
        key += std::to_string(part->size()) + ":";
        key.append(part->begin(), part->end());
    }
    const auto it = seen.find(key);
    if (it != seen.end()) return it->second;
    return seen[key] = SingleUncached(r);
}

Bytes Pack(const std::vector<Rec>& recs) {
    Bytes buf;
    for (const Rec& r : recs) test::AppendRecord(buf, r.type, r.msg32, r.pubkey, r.sig);
    return buf;
}

/** VerifyBatch over all of `recs` in one call; its verdicts, with guard bytes after them that
 *  must stay untouched. */
Bytes BatchVerdicts(const std::vector<Rec>& recs) {
    const Bytes buf = Pack(recs);
    Bytes verdicts(recs.size() + 16, 0xAA);
    const BatchStatus st = VerifyBatch(buf.data(), buf.size(), static_cast<uint32_t>(recs.size()), verdicts.data());
    EXPECT_EQ(st.error, 0);
    for (size_t i = recs.size(); i < verdicts.size(); ++i) EXPECT_EQ(verdicts[i], 0xAA) << "byte past the verdicts";
    verdicts.resize(recs.size());
    return verdicts;
}

/** Expects VerifyBatch to give every record of `recs` its single-verification verdict. */
void ExpectSingleVerdicts(const std::vector<Rec>& recs, const std::string& what) {
    const Bytes got = BatchVerdicts(recs);
    for (size_t i = 0; i < recs.size(); ++i) {
        ASSERT_EQ(got[i], Single(recs[i]) ? 1 : 0) << what << ": record " << i;
    }
}

// ---- a BIP340 signer with a chosen nonce (synthetic signatures) ----

secp256k1_context* SigningContext() {
    static secp256k1_context* ctx = secp256k1_context_create(SECP256K1_CONTEXT_NONE);
    return ctx;
}

Bytes Negated(Bytes scalar) {
    EXPECT_EQ(secp256k1_ec_seckey_negate(SigningContext(), scalar.data()), 1);
    return scalar;
}

/** sig = r || s with R = k*G, e = hash_BIP0340/challenge(r || P || m), s = k' + e*x' (k' and x'
 *  negated where BIP340 says, so that R and P have even y), or with `odd_r` an R of odd y (an
 *  invalid signature: s = k' + e*x' for the odd point). `pubkey` gets x(P). */
Rec Sign(const Bytes& seckey, const Bytes& nonce, const Bytes& msg32, bool odd_r = false) {
    secp256k1_context* ctx = SigningContext();
    secp256k1_keypair kp;
    EXPECT_EQ(secp256k1_keypair_create(ctx, &kp, seckey.data()), 1);
    secp256k1_xonly_pubkey xpk;
    int parity = 0;
    EXPECT_EQ(secp256k1_keypair_xonly_pub(ctx, &xpk, &parity, &kp), 1);
    Bytes pk32(32);
    EXPECT_EQ(secp256k1_xonly_pubkey_serialize(ctx, pk32.data(), &xpk), 1);
    const Bytes x = parity ? Negated(seckey) : seckey;

    secp256k1_pubkey rp;
    EXPECT_EQ(secp256k1_ec_pubkey_create(ctx, &rp, nonce.data()), 1);
    unsigned char r33[33];
    size_t len = 33;
    EXPECT_EQ(secp256k1_ec_pubkey_serialize(ctx, r33, &len, &rp, SECP256K1_EC_COMPRESSED), 1);
    const bool r_odd = r33[0] == 0x03;
    const Bytes k = r_odd != odd_r ? Negated(nonce) : nonce;  // R of the wanted parity

    Bytes challenge_in(r33 + 1, r33 + 33);
    challenge_in.insert(challenge_in.end(), pk32.begin(), pk32.end());
    challenge_in.insert(challenge_in.end(), msg32.begin(), msg32.end());
    static const char tag[] = "BIP0340/challenge";
    Bytes e(32);
    EXPECT_EQ(secp256k1_tagged_sha256(ctx, e.data(), reinterpret_cast<const unsigned char*>(tag), sizeof(tag) - 1,
                                      challenge_in.data(), challenge_in.size()),
              1);
    Bytes s = x;
    EXPECT_EQ(secp256k1_ec_seckey_tweak_mul(ctx, s.data(), e.data()), 1);  // e < n but for 2^-128
    EXPECT_EQ(secp256k1_ec_seckey_tweak_add(ctx, s.data(), k.data()), 1);
    Rec out;
    out.msg32 = msg32;
    out.pubkey = pk32;
    out.sig.assign(r33 + 1, r33 + 33);
    out.sig.insert(out.sig.end(), s.begin(), s.end());
    return out;
}

/** s + d (mod n) of a signature: `d` a 32-byte scalar below n. */
Rec ShiftS(Rec r, const Bytes& d) {
    Bytes s(r.sig.begin() + 32, r.sig.end());
    EXPECT_EQ(secp256k1_ec_seckey_tweak_add(SigningContext(), s.data(), d.data()), 1);
    std::copy(s.begin(), s.end(), r.sig.begin() + 32);
    return r;
}

Rec WithR(Rec r, const Bytes& r32) {
    std::copy(r32.begin(), r32.end(), r.sig.begin());
    return r;
}
Rec WithS(Rec r, const Bytes& s32) {
    std::copy(s32.begin(), s32.end(), r.sig.begin() + 32);
    return r;
}
Rec WithKey(Rec r, const Bytes& k32) {
    r.pubkey = k32;
    return r;
}

/** Synthetic records that stress the batch equation, each with what it is. */
std::vector<std::pair<std::string, Rec>> CraftedRecords() {
    std::vector<std::pair<std::string, Rec>> out;
    const Bytes x1 = Small(7), x2 = Small(11), m1 = Filled(0x42), m2 = Filled(0x99);
    out.push_back({"R = P (nonce = key)", Sign(x1, x1, m1)});
    out.push_back({"R = -P lifted (nonce = -key)", Sign(x1, Negated(x1), m2)});
    out.push_back({"R = other signature's P", Sign(x1, x2, m1)});
    for (uint8_t i = 0; i < 5; ++i) out.push_back({"nonce reused", Sign(x2, Small(99), Filled(i))});
    out.push_back({"R of odd y", Sign(x1, Small(5), m1, true)});
    out.push_back({"R of odd y, nonce = key", Sign(x2, x2, m2, true)});
    const Rec a = Sign(x1, Small(21), m1), b = Sign(x2, Small(22), m2);
    out.push_back({"s + 1 (paired with s - 1)", ShiftS(a, Small(1))});
    out.push_back({"s - 1 (paired with s + 1)", ShiftS(b, kNMinus1)});
    const Rec c = Sign(x1, Small(23), m2);
    out.push_back({"s + d", ShiftS(c, Filled(0x11))});
    out.push_back({"s - d", ShiftS(Sign(x2, Small(24), m1), Negated(Filled(0x11)))});
    out.push_back({"r = 0", WithR(a, Filled(0))});
    out.push_back({"r = 1", WithR(a, Small(1))});
    out.push_back({"r = p - 1", WithR(a, kPMinus1)});
    out.push_back({"r = p", WithR(a, kP)});
    out.push_back({"r = all 0xFF", WithR(a, Filled(0xFF))});
    out.push_back({"s = 0", WithS(a, Filled(0))});
    out.push_back({"s = n - 1", WithS(a, kNMinus1)});
    out.push_back({"s = n", WithS(a, kN)});
    out.push_back({"s = all 0xFF", WithS(a, Filled(0xFF))});
    out.push_back({"key = 0", WithKey(a, Filled(0))});
    out.push_back({"key = 1", WithKey(a, Small(1))});
    out.push_back({"key = p - 1", WithKey(a, kPMinus1)});
    out.push_back({"key = p", WithKey(a, kP)});
    out.push_back({"key = all 0xFF", WithKey(a, Filled(0xFF))});
    out.push_back({"all zero", Rec{static_cast<uint8_t>(CheckType::kSchnorr), Filled(0), Filled(0), Bytes(64, 0)}});
    out.push_back({"all 0xFF", Rec{static_cast<uint8_t>(CheckType::kSchnorr), Filled(0xFF), Filled(0xFF), Bytes(64, 0xFF)}});
    return out;
}

TEST(SchnorrBatchAdversarial, TheSignerMakesWhatItSays) {
    for (const auto& [what, r] : CraftedRecords()) {
        const bool expect_valid = what.rfind("R = ", 0) == 0 || what == "nonce reused";
        EXPECT_EQ(Single(r), expect_valid) << what;
    }
}

// Crafted records alone, in groups that are all batch-verified: each gets its own verdict, and a
// batch that holds any invalid one fails (the shifted-s pairs included: the randomizers do it).
TEST(SchnorrBatchAdversarial, CraftedRecordsBatchedAmongThemselves) {
    std::vector<Rec> recs;
    for (const auto& [what, r] : CraftedRecords()) recs.push_back(r);
    ExpectSingleVerdicts(recs, "all crafted records in one call");

    std::vector<Rec> valid;
    for (const auto& [what, r] : CraftedRecords()) {
        if (Single(r)) valid.push_back(r);
    }
    ASSERT_GE(valid.size(), kSchnorrBatchMin);
    secp256k1_scratch_space* scratch =
        secp256k1_scratch_space_create(secp256k1_context_static, ibd_schnorrsig_batch_scratch_size(64));
    const auto raw = [&](const std::vector<Rec>& b) { return RawBatch(scratch, b); };
    EXPECT_EQ(raw(valid), 1) << "equal and repeated points";
    const auto crafted = CraftedRecords();
    for (const auto& [what, r] : crafted) {
        if (Single(r)) continue;
        std::vector<Rec> b = valid;
        b.push_back(r);
        EXPECT_EQ(raw(b), 0) << what;
    }
    // The shifted pairs together: s_a + 1 and s_b - 1 keep the plain sum of s, and d / -d too.
    const auto find = [&](const std::string& what) {
        for (const auto& [w, r] : crafted) {
            if (w == what) return r;
        }
        ADD_FAILURE() << what;
        return Rec{};
    };
    EXPECT_EQ(raw({find("s + 1 (paired with s - 1)"), find("s - 1 (paired with s + 1)")}), 0);
    EXPECT_EQ(raw({find("s + d"), find("s - d")}), 0);
    std::vector<Rec> both = valid;
    both.push_back(find("s + d"));
    both.insert(both.begin(), find("s - d"));
    EXPECT_EQ(raw(both), 0);
    secp256k1_scratch_space_destroy(secp256k1_context_static, scratch);
}

// Each crafted record, and duplicates of it, at the edges of VerifyBatch's groups among real
// checks (ECDSA records between them): every verdict is single verification's.
TEST(SchnorrBatchAdversarial, CraftedRecordsAtGroupEdges) {
    const FixtureRecs& fx = Fixture();
    ASSERT_GT(fx.schnorr.size(), 2000u);
    ASSERT_GT(fx.ecdsa.size(), 100u);
    // 2,100 Schnorr records (groups 0-1023, 1024-2047, 2048-2099) with an ECDSA record after
    // every 97th; some ECDSA records broken too.
    std::vector<Rec> base;
    for (size_t i = 0; i < 2100; ++i) {
        base.push_back(fx.schnorr[i % fx.schnorr.size()]);
        if (i % 97 == 0) {
            Rec e = fx.ecdsa[i % fx.ecdsa.size()];
            if (i % 3 == 0) e.msg32[0] ^= 1;
            base.push_back(e);
        }
    }
    const auto crafted = CraftedRecords();
    // Schnorr positions of the group edges (index among Schnorr records) -> index in `base`.
    std::vector<size_t> schnorr_at;
    for (size_t i = 0; i < base.size(); ++i) {
        if (base[i].type == static_cast<uint8_t>(CheckType::kSchnorr)) schnorr_at.push_back(i);
    }
    const size_t edges[] = {0, 1, kSchnorrBatchMin - 1, kSchnorrBatchMin, 1022, 1023, 1024, 1025, 2047, 2048, 2099};
    for (size_t c = 0; c < crafted.size(); ++c) {
        std::vector<Rec> recs = base;
        // This crafted record at every edge, and the next one (a different kind) beside it.
        for (size_t e : edges) recs[schnorr_at[e]] = crafted[(c + (e % 2)) % crafted.size()].second;
        ExpectSingleVerdicts(recs, crafted[c].first);
        if (HasFatalFailure()) return;
    }
}

// Random damage to real signatures (bit flips in r, s, key and message; fields set to range
// edges; records duplicated), in random numbers, places and call sizes: every verdict is single
// verification's. Deterministic (a fixed xorshift seed).
TEST(SchnorrBatchAdversarial, RandomDamageGetsSingleVerdicts) {
    const FixtureRecs& fx = Fixture();
    uint64_t state = 0x9E3779B97F4A7C15ull;
    const auto next = [&] {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        return state;
    };
    const Bytes edges[] = {Filled(0), Filled(0xFF), kP, kPMinus1, kN, kNMinus1, Small(1)};
    for (int round = 0; round < 12; ++round) {
        const size_t n = 1 + next() % 1400;
        std::vector<Rec> recs;
        for (size_t i = 0; i < n; ++i) {
            const uint64_t pick = next() % 100;
            if (pick < 3 && !recs.empty()) {
                recs.push_back(recs[next() % recs.size()]);  // a duplicate
                continue;
            }
            if (pick < 8) {
                recs.push_back(fx.ecdsa[next() % fx.ecdsa.size()]);
                continue;
            }
            Rec r = fx.schnorr[next() % fx.schnorr.size()];
            const uint64_t damage = next() % 40;
            if (damage == 0) r.sig[next() % 32] ^= static_cast<uint8_t>(1u << (next() % 8));       // r
            if (damage == 1) r.sig[32 + next() % 32] ^= static_cast<uint8_t>(1u << (next() % 8));  // s
            if (damage == 2) r.pubkey[next() % 32] ^= static_cast<uint8_t>(1u << (next() % 8));
            if (damage == 3) r.msg32[next() % 32] ^= static_cast<uint8_t>(1u << (next() % 8));
            if (damage == 4) r = WithR(r, edges[next() % 7]);
            if (damage == 5) r = WithS(r, edges[next() % 7]);
            if (damage == 6) r = WithKey(r, edges[next() % 7]);
            recs.push_back(std::move(r));
        }
        ExpectSingleVerdicts(recs, "round " + std::to_string(round) + " (" + std::to_string(n) + " records)");
        if (HasFatalFailure()) return;
    }
}

// A malformed record right after queued Schnorr records (fewer than a group, a group and a
// half, exactly one full group): the error names it, every record before it has single
// verification's verdict, every one from it on is invalid, nothing past `count` is written;
// and the next call starts clean.
TEST(SchnorrBatchAdversarial, MalformedRecordAfterQueuedSchnorrRecords) {
    const FixtureRecs& fx = Fixture();
    struct Bad { const char* what; int error; Bytes bytes; };
    const Rec s0 = fx.schnorr[0];
    const auto rec = [](uint8_t type, size_t pk, size_t sig) {
        Bytes b;
        test::AppendRecord(b, type, Filled(1), Bytes(pk, 2), Bytes(sig, 3));
        return b;
    };
    Bytes cut_body = rec(2, 32, 64);
    cut_body.pop_back();
    const std::vector<Bad> bads = {
        {"header cut at 10 bytes", 1, Bytes(10, 2)},
        {"Schnorr body cut", 1, cut_body},
        {"Schnorr 33-byte key", 3, rec(2, 33, 64)},
        {"Schnorr 65-byte signature", 3, rec(2, 32, 65)},
        {"Schnorr empty signature", 3, rec(2, 32, 0)},
        {"ECDSA signature of 521 bytes", 3, rec(1, 33, 521)},
        {"type 0", 2, rec(0, 32, 64)},
        {"type 3", 2, rec(3, 32, 64)},
        {"type 255", 2, rec(255, 32, 64)},
    };
    for (size_t queued : {size_t{3}, size_t{1536}, size_t{kSchnorrBatchMax}}) {
        std::vector<Rec> before;
        for (size_t i = 0; i < queued; ++i) before.push_back(fx.schnorr[(i * 7) % fx.schnorr.size()]);
        for (size_t i = 1; i < queued; i += 401) before[i].sig[45] ^= 8;  // invalid ones among them
        const Bytes head = Pack(before);
        for (const Bad& bad : bads) {
            Bytes buf = head;
            buf.insert(buf.end(), bad.bytes.begin(), bad.bytes.end());
            const bool cut = bad.error == 1;
            if (!cut) test::AppendSchnorr(buf, s0.msg32, s0.pubkey, s0.sig);  // a good record after it
            const uint32_t count = static_cast<uint32_t>(queued + 2);
            Bytes verdicts(count + 8, 0xAA);
            const BatchStatus st = VerifyBatch(buf.data(), buf.size(), count, verdicts.data());
            const std::string what = std::string(bad.what) + " after " + std::to_string(queued);
            EXPECT_EQ(st.error, bad.error) << what;
            EXPECT_EQ(st.error_record, queued) << what;
            EXPECT_EQ(st.error_offset, head.size()) << what;
            for (size_t i = 0; i < queued; ++i) ASSERT_EQ(verdicts[i], Single(before[i]) ? 1 : 0) << what << ", record " << i;
            EXPECT_EQ(verdicts[queued], 0) << what;
            EXPECT_EQ(verdicts[queued + 1], 0) << what;
            for (size_t i = count; i < verdicts.size(); ++i) EXPECT_EQ(verdicts[i], 0xAA) << what << ": byte past the verdicts";
            // The next call does not see this one's queue.
            Bytes one;
            test::AppendSchnorr(one, s0.msg32, s0.pubkey, s0.sig);
            uint8_t v = 0xAA;
            ASSERT_EQ(VerifyBatch(one.data(), one.size(), 1, &v).error, 0);
            EXPECT_EQ(v, 1) << what;
        }
    }
}

// More records asked for than the buffer holds (by one, and by billions), and none.
TEST(SchnorrBatchAdversarial, CountBeyondTheBuffer) {
    const FixtureRecs& fx = Fixture();
    std::vector<Rec> recs(fx.schnorr.begin(), fx.schnorr.begin() + 40);
    recs[17].sig[50] ^= 1;
    const Bytes buf = Pack(recs);
    for (uint32_t count : {41u, 1000u}) {
        std::vector<uint8_t> verdicts(count);
        const BatchStatus st = VerifyBatch(buf.data(), buf.size(), count, verdicts.data());
        EXPECT_EQ(st.error, 1);
        EXPECT_EQ(st.error_record, 40u);
        EXPECT_EQ(st.error_offset, buf.size());
        for (size_t i = 0; i < 40; ++i) ASSERT_EQ(verdicts[i], i == 17 ? 0 : 1) << "record " << i;
    }
    EXPECT_EQ(VerifyBatch(nullptr, 0, 0, nullptr).error, 0);
    uint8_t v = 0xAA;
    const BatchStatus st = VerifyBatch(nullptr, 0, 1, &v);
    EXPECT_EQ(st.error, 1);
    EXPECT_EQ(v, 0);

    // The raw batch (VerifySchnorrBatchOnce): a count past the buffer names the first record that
    // does not fit, without first allocating room for `count` records (4 billion of them here).
    uint32_t bad = 0;
    EXPECT_EQ(VerifySchnorrBatchOnce(buf.data(), buf.size(), 0xFFFFFFFFu, &bad), -1);
    EXPECT_EQ(bad, 40u);
    EXPECT_EQ(VerifySchnorrBatchOnce(buf.data(), buf.size(), 41, &bad), -1);
    EXPECT_EQ(bad, 40u);
    EXPECT_EQ(VerifySchnorrBatchOnce(nullptr, 0, 0xFFFFFFFFu, &bad), -1);
    EXPECT_EQ(bad, 0u);
    EXPECT_EQ(VerifySchnorrBatchOnce(buf.data(), buf.size(), 0, &bad), 0);
    EXPECT_EQ(VerifySchnorrBatchOnce(buf.data(), buf.size(), 17, &bad), 1);
    EXPECT_EQ(VerifySchnorrBatchOnce(buf.data(), buf.size(), 18, &bad), 0);
    // A wrong type before the end of the buffer is named before the count past it.
    Bytes ecdsa_at_3 = buf;
    ecdsa_at_3[3 * 132] = static_cast<uint8_t>(CheckType::kEcdsa);
    EXPECT_EQ(VerifySchnorrBatchOnce(ecdsa_at_3.data(), ecdsa_at_3.size(), 0xFFFFFFFFu, &bad), -1);
    EXPECT_EQ(bad, 3u);
}

// Batches large enough for Pippenger's algorithm with affine buckets (pippenger_affine_impl.h),
// made of a few points repeated hundreds of times: the same R (and the same key) lands in one
// bucket many times per window, with the same sign (P + P) and the opposite one (P + (-P)),
// which an affine addition cannot take; such pairs go to the bucket's Jacobian side sum. Valid
// repeats pass; one flipped bit anywhere among them fails the batch.
TEST(SchnorrBatchAdversarial, RepeatedPointsInPippengerBatches) {
    const FixtureRecs& fx = Fixture();
    std::vector<Rec> valid_crafted;
    for (const auto& [what, r] : CraftedRecords()) {
        if (Single(r)) valid_crafted.push_back(r);
    }
    ASSERT_GE(valid_crafted.size(), 3u);
    secp256k1_scratch_space* scratch =
        secp256k1_scratch_space_create(secp256k1_context_static, ibd_schnorrsig_batch_scratch_size(1024));
    const auto verify = [&](const std::vector<Rec>& list) { return RawBatch(scratch, list); };
    const std::vector<std::pair<std::string, std::vector<Rec>>> batches = {
        {"one real signature 600 times", std::vector<Rec>(600, fx.schnorr[0])},
        {"one crafted signature (R = P) 300 times", std::vector<Rec>(300, valid_crafted[0])},
        {"the valid crafted records 40 times over", [&] {
             std::vector<Rec> b;
             for (int k = 0; k < 40; ++k) b.insert(b.end(), valid_crafted.begin(), valid_crafted.end());
             return b;
         }()},
        {"200 real signatures, then the first 50 again, then the crafted ones 10 times", [&] {
             std::vector<Rec> b(fx.schnorr.begin(), fx.schnorr.begin() + 200);
             b.insert(b.end(), fx.schnorr.begin(), fx.schnorr.begin() + 50);
             for (int k = 0; k < 10; ++k) b.insert(b.end(), valid_crafted.begin(), valid_crafted.end());
             return b;
         }()},
    };
    for (const auto& [what, batch] : batches) {
        ASSERT_LE(batch.size(), 1024u);
        EXPECT_EQ(verify(batch), 1) << what;
        for (size_t at : {size_t{0}, batch.size() / 3, batch.size() - 1}) {
            for (size_t byte : {size_t{5}, size_t{40}}) {  // r, s
                std::vector<Rec> broken = batch;
                broken[at].sig[byte] ^= 1;
                EXPECT_EQ(verify(broken), Single(broken[at]) ? 1 : 0)
                    << what << ": signature " << at << ", byte " << byte << " flipped";
            }
        }
    }
    secp256k1_scratch_space_destroy(secp256k1_context_static, scratch);
}

// The scratch space's size changes how the multiplication is split, never the verdict.
// Signatures under one key share its term in the multiplication (schnorrsig_batch.h). Block
// 866,342's Schnorr checks reuse keys; in a batch of them, breaking one signature under a shared
// key, or moving a valid signature under another signature's key, fails the batch; the batch as
// given passes, and so does every key's signatures alone.
TEST(SchnorrBatchAdversarial, SignaturesUnderOneKeyShareItsTerm) {
    const FixtureRecs& fx = Fixture();
    const size_t n = 1024;
    ASSERT_GE(fx.schnorr.size(), n);
    std::vector<Rec> recs(fx.schnorr.begin(), fx.schnorr.begin() + n);
    std::map<Bytes, std::vector<size_t>> by_key;
    for (size_t i = 0; i < n; ++i) by_key[recs[i].pubkey].push_back(i);
    ASSERT_LT(by_key.size(), n / 2) << "the fixture's signatures reuse keys";
    const auto it = std::max_element(by_key.begin(), by_key.end(),
                                      [](const auto& a, const auto& b) { return a.second.size() < b.second.size(); });
    ASSERT_GE(it->second.size(), 3u);
    secp256k1_scratch_space* scratch = secp256k1_scratch_space_create(secp256k1_context_static, ibd_schnorrsig_batch_scratch_size(n));
    const auto verify = [&](const std::vector<Rec>& list) { return RawBatch(scratch, list); };
    EXPECT_EQ(verify(recs), 1);
    std::vector<Rec> one_key;
    for (size_t i : it->second) one_key.push_back(recs[i]);
    EXPECT_EQ(verify(one_key), 1) << one_key.size() << " signatures under one key";
    for (size_t k : {size_t{0}, it->second.size() / 2, it->second.size() - 1}) {
        std::vector<Rec> broken = recs;
        broken[it->second[k]].sig[40] ^= 1;  // its s
        EXPECT_EQ(verify(broken), 0) << "signature " << it->second[k] << " broken, under a key of " << it->second.size();
    }
    // A signature of another key moved under the shared key (its message kept): invalid there.
    size_t other = 0;
    while (recs[other].pubkey == it->first) ++other;
    std::vector<Rec> moved = recs;
    moved[other].pubkey = it->first;
    EXPECT_EQ(verify(moved), 0);
    secp256k1_scratch_space_destroy(secp256k1_context_static, scratch);
}

TEST(SchnorrBatchAdversarial, ScratchSizeNeverChangesTheVerdict) {
    const FixtureRecs& fx = Fixture();
    for (size_t n : {size_t{5}, size_t{60}, size_t{700}}) {
        std::vector<const unsigned char*> sig, msg, pk;
        std::vector<Rec> recs(fx.schnorr.begin(), fx.schnorr.begin() + n);
        for (const Rec& r : recs) {
            sig.push_back(r.sig.data());
            msg.push_back(r.msg32.data());
            pk.push_back(r.pubkey.data());
        }
        const size_t full = ibd_schnorrsig_batch_scratch_size(n);
        size_t slots = 4;  // the table of distinct keys: a power of two, at least 2n slots
        while (slots < 2 * n) slots <<= 1;
        // About the per-signature arrays alone: scalars, points, the key table and its index.
        const size_t arrays = (3 * n + 2) * (32 + 88) + (slots + n) * sizeof(size_t) + 64;
        for (size_t bytes : {size_t{1}, arrays, arrays + 200, arrays + 5000, full / 2, full, full * 3}) {
            secp256k1_scratch_space* scratch = secp256k1_scratch_space_create(secp256k1_context_static, bytes);
            const int ok = ibd_schnorrsig_verify_batch(secp256k1_context_static, scratch, sig.data(), msg.data(),
                                                       pk.data(), n);
            // Too little room for the arrays: 0 (the caller then verifies each). With room for them,
            // whatever is left for the multiplication (none: libsecp256k1's simple algorithm;
            // some: several smaller multiplications), the truth.
            if (bytes >= arrays + 200) EXPECT_EQ(ok, 1) << n << " signatures, " << bytes << " bytes";
            if (bytes < 1000) EXPECT_EQ(ok, 0) << n << " signatures, " << bytes << " bytes";
            Rec broken = recs[n / 2];
            broken.sig[33] ^= 1;
            sig[n / 2] = broken.sig.data();
            EXPECT_EQ(ibd_schnorrsig_verify_batch(secp256k1_context_static, scratch, sig.data(), msg.data(), pk.data(), n), 0)
                << n << " signatures, " << bytes << " bytes";
            sig[n / 2] = recs[n / 2].sig.data();
            // The scratch space is left empty: the full batch still fits in it afterwards.
            EXPECT_EQ(ibd_schnorrsig_verify_batch(secp256k1_context_static, scratch, sig.data(), msg.data(), pk.data(), n), ok);
            secp256k1_scratch_space_destroy(secp256k1_context_static, scratch);
        }
        secp256k1_scratch_space* enough = secp256k1_scratch_space_create(secp256k1_context_static, full);
        EXPECT_EQ(ibd_schnorrsig_verify_batch(secp256k1_context_static, enough, sig.data(), msg.data(), pk.data(), n), 1);
        secp256k1_scratch_space_destroy(secp256k1_context_static, enough);
    }
}

}  // namespace
}  // namespace ibd
