// Implementation of taproot.h (BIP341 "Script validation rules" and "Constructing and spending
// Taproot outputs").
#include "script/taproot.h"

#include <algorithm>

#include <secp256k1.h>
#include <secp256k1_extrakeys.h>

namespace ibd {

bool IsValidControlBlockSize(size_t size) {
    return size >= kTaprootControlBaseSize && size <= kTaprootControlMaxSize &&
           (size - kTaprootControlBaseSize) % kTaprootControlNodeSize == 0;
}

Hash32 ComputeTapleafHash(uint8_t leaf_version, const uint8_t* script, size_t len) {
    static const Sha256 kTapLeaf = TaggedHasher("TapLeaf");
    Sha256 h = kTapLeaf;
    h.Write(&leaf_version, 1);
    // CompactSize(len) (Bitcoin's variable-length integer).
    uint8_t cs[9];
    size_t n;
    if (len < 0xfd) {
        cs[0] = uint8_t(len);
        n = 1;
    } else if (len <= 0xffff) {
        cs[0] = 0xfd;
        cs[1] = uint8_t(len);
        cs[2] = uint8_t(len >> 8);
        n = 3;
    } else if (len <= 0xffffffffULL) {
        cs[0] = 0xfe;
        for (int i = 0; i < 4; ++i) cs[1 + i] = uint8_t(uint64_t(len) >> (8 * i));
        n = 5;
    } else {
        cs[0] = 0xff;
        for (int i = 0; i < 8; ++i) cs[1 + i] = uint8_t(uint64_t(len) >> (8 * i));
        n = 9;
    }
    h.Write(cs, n);
    h.Write(script, len);
    return h.Finalize();
}

Hash32 ComputeTapbranchHash(const Hash32& a, const Hash32& b) {
    static const Sha256 kTapBranch = TaggedHasher("TapBranch");
    Sha256 h = kTapBranch;
    // BIP341: the two children are hashed in lexicographic order of their bytes.
    if (std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end())) {
        h.Write(a.data(), a.size()).Write(b.data(), b.size());
    } else {
        h.Write(b.data(), b.size()).Write(a.data(), a.size());
    }
    return h.Finalize();
}

Hash32 ComputeTaprootMerkleRoot(const uint8_t* control, size_t control_len, const Hash32& tapleaf_hash) {
    const size_t path_len = (control_len - kTaprootControlBaseSize) / kTaprootControlNodeSize;
    Hash32 k = tapleaf_hash;
    for (size_t i = 0; i < path_len; ++i) {
        Hash32 node;
        std::copy_n(control + kTaprootControlBaseSize + kTaprootControlNodeSize * i, 32, node.begin());
        k = ComputeTapbranchHash(k, node);
    }
    return k;
}

Hash32 ComputeTapTweakHash(const uint8_t* internal_key, const Hash32* merkle_root) {
    static const Sha256 kTapTweak = TaggedHasher("TapTweak");
    Sha256 h = kTapTweak;
    h.Write(internal_key, 32);
    if (merkle_root) h.Write(merkle_root->data(), merkle_root->size());
    return h.Finalize();
}

bool ComputeTweakedKey(const uint8_t* internal_key, const Hash32* merkle_root, uint8_t out32[32], int* parity) {
    secp256k1_xonly_pubkey p;
    if (!secp256k1_xonly_pubkey_parse(secp256k1_context_static, &p, internal_key)) return false;
    const Hash32 tweak = ComputeTapTweakHash(internal_key, merkle_root);
    secp256k1_pubkey q;
    if (!secp256k1_xonly_pubkey_tweak_add(secp256k1_context_static, &q, &p, tweak.data())) return false;
    secp256k1_xonly_pubkey qx;
    int pty = 0;
    if (!secp256k1_xonly_pubkey_from_pubkey(secp256k1_context_static, &qx, &pty, &q)) return false;
    if (parity) *parity = pty;
    return secp256k1_xonly_pubkey_serialize(secp256k1_context_static, out32, &qx) == 1;
}

bool VerifyTaprootCommitment(const uint8_t* control, size_t control_len, const uint8_t* program32,
                             const Hash32& tapleaf_hash) {
    // Core's VerifyTaprootCommitment / XOnlyPubKey::CheckTapTweak: P from the control block,
    // Q from the program (not parsed: tweak_add_check compares its bytes).
    const uint8_t* internal_key = control + 1;
    secp256k1_xonly_pubkey p;
    if (!secp256k1_xonly_pubkey_parse(secp256k1_context_static, &p, internal_key)) return false;
    const Hash32 root = ComputeTaprootMerkleRoot(control, control_len, tapleaf_hash);
    const Hash32 tweak = ComputeTapTweakHash(internal_key, &root);
    return secp256k1_xonly_pubkey_tweak_add_check(secp256k1_context_static, program32, control[0] & 1, &p,
                                                  tweak.data()) == 1;
}

}  // namespace ibd
