#include "undo/compressor.h"

#include <secp256k1.h>

#include <algorithm>
#include <cstring>
#include <string>

namespace ibd {

namespace {

constexpr uint8_t OP_DUP = 0x76, OP_HASH160 = 0xa9, OP_EQUALVERIFY = 0x88, OP_CHECKSIG = 0xac, OP_EQUAL = 0x87,
                  OP_RETURN = 0x6a;
/** Core's MAX_SCRIPT_SIZE (script/script.h). */
constexpr uint64_t kMaxScriptSize = 10000;

bool IsToKeyId(const std::vector<uint8_t>& s) {
    return s.size() == 25 && s[0] == OP_DUP && s[1] == OP_HASH160 && s[2] == 20 && s[23] == OP_EQUALVERIFY &&
           s[24] == OP_CHECKSIG;
}

bool IsToScriptId(const std::vector<uint8_t>& s) {
    return s.size() == 23 && s[0] == OP_HASH160 && s[1] == 20 && s[22] == OP_EQUAL;
}

/** A key libsecp256k1 parses: Core's CPubKey::IsFullyValid. */
bool IsFullyValid(const uint8_t* key, size_t len) {
    secp256k1_pubkey parsed;
    return secp256k1_ec_pubkey_parse(secp256k1_context_static, &parsed, key, len) == 1;
}

}  // namespace

uint64_t CompressAmount(uint64_t n) {
    if (n == 0) return 0;
    int e = 0;
    while ((n % 10) == 0 && e < 9) {
        n /= 10;
        ++e;
    }
    if (e < 9) {
        const uint64_t d = n % 10;  // 1..9
        n /= 10;
        return 1 + (n * 9 + d - 1) * 10 + static_cast<uint64_t>(e);
    }
    return 1 + (n - 1) * 10 + 9;
}

uint64_t DecompressAmount(uint64_t x) {
    if (x == 0) return 0;
    --x;
    int e = static_cast<int>(x % 10);
    x /= 10;
    uint64_t n;
    if (e < 9) {
        const uint64_t d = (x % 9) + 1;
        x /= 9;
        n = x * 10 + d;
    } else {
        n = x + 1;
    }
    for (; e > 0; --e) n *= 10;
    return n;
}

size_t SpecialScriptSize(unsigned n_size) { return n_size <= 1 ? 20 : 32; }

bool CompressScript(const std::vector<uint8_t>& s, std::vector<uint8_t>& out) {
    if (IsToKeyId(s)) {
        out.assign(1, 0x00);
        out.insert(out.end(), s.begin() + 3, s.begin() + 23);
        return true;
    }
    if (IsToScriptId(s)) {
        out.assign(1, 0x01);
        out.insert(out.end(), s.begin() + 2, s.begin() + 22);
        return true;
    }
    if (s.size() == 35 && s[0] == 33 && s[34] == OP_CHECKSIG && (s[1] == 0x02 || s[1] == 0x03)) {
        out.assign(s.begin() + 1, s.begin() + 34);  // prefix (2 or 3) then x
        return true;
    }
    if (s.size() == 67 && s[0] == 65 && s[66] == OP_CHECKSIG && s[1] == 0x04 && IsFullyValid(s.data() + 1, 65)) {
        out.assign(1, static_cast<uint8_t>(0x04 | (s[65] & 0x01)));
        out.insert(out.end(), s.begin() + 2, s.begin() + 34);
        return true;
    }
    return false;
}

bool DecompressScript(std::vector<uint8_t>& script, unsigned n_size, const uint8_t* in) {
    script.clear();
    switch (n_size) {
    case 0:
        script = {OP_DUP, OP_HASH160, 20};
        script.insert(script.end(), in, in + 20);
        script.push_back(OP_EQUALVERIFY);
        script.push_back(OP_CHECKSIG);
        return true;
    case 1:
        script = {OP_HASH160, 20};
        script.insert(script.end(), in, in + 20);
        script.push_back(OP_EQUAL);
        return true;
    case 2:
    case 3:
        script = {33, static_cast<uint8_t>(n_size)};
        script.insert(script.end(), in, in + 32);
        script.push_back(OP_CHECKSIG);
        return true;
    case 4:
    case 5: {
        uint8_t compressed[33];
        compressed[0] = static_cast<uint8_t>(n_size - 2);
        std::memcpy(compressed + 1, in, 32);
        secp256k1_pubkey key;
        if (!secp256k1_ec_pubkey_parse(secp256k1_context_static, &key, compressed, sizeof compressed)) return false;
        uint8_t full[65];
        size_t full_len = sizeof full;
        secp256k1_ec_pubkey_serialize(secp256k1_context_static, full, &full_len, &key, SECP256K1_EC_UNCOMPRESSED);
        script.assign(1, 65);
        script.insert(script.end(), full, full + 65);
        script.push_back(OP_CHECKSIG);
        return true;
    }
    default:
        return false;
    }
}

TxOut ReadCompressedTxOut(Reader& r) {
    TxOut out;
    out.value = static_cast<int64_t>(DecompressAmount(r.ReadVarInt("compressed amount")));
    const size_t at = r.offset();
    const uint64_t n_size = r.ReadVarInt("compressed script size", UINT32_MAX);
    if (n_size < kSpecialScripts) {
        const uint8_t* special = r.ReadBytes(SpecialScriptSize(static_cast<unsigned>(n_size)), "compressed script");
        if (!DecompressScript(out.script_pubkey, static_cast<unsigned>(n_size), special)) {
            r.Fail("compressed script (P2PK, kind " + std::to_string(n_size) +
                       "): public key x is not on the curve, which no CompressScript writes",
                   at);
        }
        return out;
    }
    const uint64_t len = n_size - kSpecialScripts;
    if (len > kMaxScriptSize) {
        // Core reads it back as OP_RETURN (unspendable) and skips its bytes.
        r.Need(static_cast<size_t>(std::min<uint64_t>(len, SIZE_MAX)), "compressed script");
        r.ReadBytes(static_cast<size_t>(len), "compressed script");
        out.script_pubkey.assign(1, OP_RETURN);
        return out;
    }
    const uint8_t* p = r.ReadBytes(static_cast<size_t>(len), "compressed script");
    out.script_pubkey.assign(p, p + len);
    return out;
}

void WriteCompressedTxOut(std::vector<uint8_t>& sink, const TxOut& out) {
    VectorSink s{sink};
    WriteVarInt(s, CompressAmount(static_cast<uint64_t>(out.value)));
    std::vector<uint8_t> special;
    if (CompressScript(out.script_pubkey, special)) {
        s.Write(special.data(), special.size());  // its first byte, 0-5, is its own VARINT
        return;
    }
    WriteVarInt(s, out.script_pubkey.size() + kSpecialScripts);
    if (!out.script_pubkey.empty()) s.Write(out.script_pubkey.data(), out.script_pubkey.size());
}

}  // namespace ibd
