// Implementation of synthetic_legacy_tx.h.
#include "derived/synthetic_legacy_tx.h"

#include <memory>
#include <stdexcept>
#include <string>

#include <secp256k1.h>

#include "crypto/ripemd160.h"
#include "primitives/block.h"
#include "primitives/hex.h"
#include "primitives/serialize.h"
#include "script/script.h"
#include "derived/block_mutation.h"

namespace ibd::test {

namespace {

constexpr uint32_t kMaxInputs = 25000;
constexpr uint32_t kMaxOutputs = 30000;
constexpr int64_t kSpentValue = 1000000;   // sat per synthetic spent output
constexpr int64_t kFeePerInput = 10000;    // sat
constexpr int64_t kSubsidy = 2500000000;   // GetBlockSubsidy(364,292): 25 BTC
constexpr int32_t kSighashAll = 1;

/** SHA-256 of `tag` || LE32(i): the generator's source of deterministic bytes. */
Hash32 TagHash(const std::string& tag, uint32_t i) {
    Sha256 h;
    h.Write(reinterpret_cast<const uint8_t*>(tag.data()), tag.size());
    WriteLE32(h, i);
    return h.Finalize();
}

/** OP_DUP OP_HASH160 <20> OP_EQUALVERIFY OP_CHECKSIG. */
std::vector<uint8_t> P2pkhScript(const uint8_t* hash20) {
    std::vector<uint8_t> s = {OP_DUP, OP_HASH160, 20};
    s.insert(s.end(), hash20, hash20 + 20);
    s.push_back(OP_EQUALVERIFY);
    s.push_back(OP_CHECKSIG);
    return s;
}

/** A direct push of `n` (< 76) bytes. */
void AppendPush(std::vector<uint8_t>& script, const uint8_t* data, size_t n) {
    script.push_back(static_cast<uint8_t>(n));
    script.insert(script.end(), data, data + n);
}

size_t CompactSizeLen(uint64_t n) { return n < 253 ? 1 : n <= 0xffff ? 3 : n <= 0xffffffffu ? 5 : 9; }

struct ContextDeleter {
    void operator()(secp256k1_context* c) const { secp256k1_context_destroy(c); }
};

}  // namespace

SyntheticLegacyBlock MakeSyntheticLegacyBlock(const SyntheticLegacyParams& p) {
    if (p.inputs == 0 || p.inputs > kMaxInputs) {
        throw std::invalid_argument("synthetic legacy tx: inputs must be 1.." + std::to_string(kMaxInputs) + ", got " +
                                    std::to_string(p.inputs));
    }
    if (p.outputs == 0 || p.outputs > kMaxOutputs) {
        throw std::invalid_argument("synthetic legacy tx: outputs must be 1.." + std::to_string(kMaxOutputs) +
                                    ", got " + std::to_string(p.outputs));
    }
    // Refuse before the expensive part: the largest the block can be (73-byte signatures).
    const size_t key_len = p.compressed_keys ? 33 : 65;
    const size_t input_max = 36 + 1 + (1 + 73) + (1 + key_len) + 4;
    const size_t coinbase_max = 4 + 1 + 36 + 1 + 100 + 4 + 1 + 34 + 4;
    const size_t tx_max = 4 + CompactSizeLen(p.inputs) + p.inputs * input_max + CompactSizeLen(p.outputs) +
                          size_t{p.outputs} * 34 + 4;
    if (kBlockHeaderSize + 1 + coinbase_max + tx_max > kSyntheticMaxBlockBytes) {
        throw std::invalid_argument("synthetic legacy tx: " + std::to_string(p.inputs) + " inputs and " +
                                    std::to_string(p.outputs) + " outputs may make a block of up to " +
                                    std::to_string(kBlockHeaderSize + 1 + coinbase_max + tx_max) +
                                    " bytes, over the " + std::to_string(kSyntheticMaxBlockBytes) + "-byte limit");
    }

    std::unique_ptr<secp256k1_context, ContextDeleter> ctx(secp256k1_context_create(SECP256K1_CONTEXT_NONE));
    SyntheticLegacyBlock out;
    out.height = kSyntheticLegacyHeight;

    // Keys, the outputs they lock, and the transaction with empty scriptSigs.
    Transaction tx;
    tx.version = 1;
    tx.lock_time = 0;
    std::vector<Hash32> seckeys(p.inputs);
    std::vector<std::vector<uint8_t>> pubkeys(p.inputs);
    for (uint32_t i = 0; i < p.inputs; ++i) {
        Hash32 sk = TagHash("ibd-wasm synthetic key", i);
        while (!secp256k1_ec_seckey_verify(ctx.get(), sk.data())) sk = Sha256Hash(sk.data(), sk.size());
        seckeys[i] = sk;
        secp256k1_pubkey pk;
        if (!secp256k1_ec_pubkey_create(ctx.get(), &pk, sk.data())) throw std::runtime_error("pubkey_create failed");
        pubkeys[i].resize(key_len);
        size_t len = key_len;
        secp256k1_ec_pubkey_serialize(ctx.get(), pubkeys[i].data(), &len, &pk,
                                      p.compressed_keys ? SECP256K1_EC_COMPRESSED : SECP256K1_EC_UNCOMPRESSED);
        const Hash20 h160 = Hash160(pubkeys[i].data(), pubkeys[i].size());
        SpentOutputEntry e;
        const std::string tag = "ibd-wasm synthetic prevout";
        std::vector<uint8_t> pre(tag.begin(), tag.end());
        VectorSink ps{pre};
        WriteLE32(ps, i);
        e.prevout.txid = Sha256d(pre.data(), pre.size());
        e.prevout.n = 0;
        e.out.value = kSpentValue;
        e.out.script_pubkey = P2pkhScript(h160.data());
        TxIn in;
        in.prevout = e.prevout;
        in.sequence = 0xffffffff;
        tx.vin.push_back(std::move(in));
        out.spent.push_back(std::move(e));
    }
    const int64_t fee = kFeePerInput * p.inputs;
    const int64_t paid = kSpentValue * p.inputs - fee;
    for (uint32_t o = 0; o < p.outputs; ++o) {
        TxOut txout;
        txout.value = paid / p.outputs + (o == 0 ? paid % p.outputs : 0);
        txout.script_pubkey = P2pkhScript(TagHash("ibd-wasm synthetic output", o).data());
        tx.vout.push_back(std::move(txout));
    }

    // The legacy sighashes, computed here without SignatureHashLegacy. With every scriptSig
    // emptied, the transaction serializes to E; input i's SIGHASH_ALL preimage is E with input
    // i's empty script (the byte 0x00 after its outpoint) replaced by its scriptCode (the
    // spent P2PKH script, CompactSize first), then the hash type as 4 bytes LE (Core's
    // CTransactionSignatureSerializer with every other input's script blanked). E's prefix up
    // to input i's outpoint is hashed once, by a running hasher copied at each input.
    const std::vector<uint8_t> emptied = SerializeTransaction(tx, false);
    const size_t first_input = 4 + CompactSizeLen(p.inputs);
    Sha256 running;
    running.Write(emptied.data(), first_input);
    out.sighashes.resize(p.inputs);
    for (uint32_t i = 0; i < p.inputs; ++i) {
        const size_t at = first_input + size_t{i} * 41;  // input i: outpoint (36), 0x00, nSequence (4)
        running.Write(emptied.data() + at, 36);
        Sha256 h = running;
        WriteVarBytes(h, out.spent[i].out.script_pubkey);
        h.Write(emptied.data() + at + 37, emptied.size() - (at + 37));
        WriteLE32(h, static_cast<uint32_t>(kSighashAll));
        out.sighashes[i] = FinalizeDouble(h);
        running.Write(emptied.data() + at + 36, 5);
    }

    // The scriptSigs: <DER signature || SIGHASH_ALL> <pubkey>.
    for (uint32_t i = 0; i < p.inputs; ++i) {
        secp256k1_ecdsa_signature sig;
        if (!secp256k1_ecdsa_sign(ctx.get(), &sig, out.sighashes[i].data(), seckeys[i].data(), nullptr, nullptr)) {
            throw std::runtime_error("ecdsa_sign failed for input " + std::to_string(i));
        }
        uint8_t der[74];
        size_t der_len = 72;
        secp256k1_ecdsa_signature_serialize_der(ctx.get(), der, &der_len, &sig);
        der[der_len++] = static_cast<uint8_t>(kSighashAll);
        std::vector<uint8_t>& script_sig = tx.vin[i].script_sig;
        AppendPush(script_sig, der, der_len);
        AppendPush(script_sig, pubkeys[i].data(), pubkeys[i].size());
    }

    // The coinbase: BIP34 height push, then a tag; the subsidy plus the fee to a synthetic key.
    Transaction coinbase;
    coinbase.version = 1;
    TxIn cb_in;
    cb_in.prevout.txid = Hash32{};
    cb_in.prevout.n = 0xffffffff;
    cb_in.script_sig = {0x03, static_cast<uint8_t>(kSyntheticLegacyHeight & 0xff),
                        static_cast<uint8_t>((kSyntheticLegacyHeight >> 8) & 0xff),
                        static_cast<uint8_t>((kSyntheticLegacyHeight >> 16) & 0xff)};
    const std::string tag = "ibd-wasm synthetic";
    coinbase.vin.push_back(std::move(cb_in));
    coinbase.vin[0].script_sig.insert(coinbase.vin[0].script_sig.end(), tag.begin(), tag.end());
    TxOut cb_out;
    cb_out.value = kSubsidy + fee;
    cb_out.script_pubkey = P2pkhScript(TagHash("ibd-wasm synthetic coinbase", 0).data());
    coinbase.vout.push_back(std::move(cb_out));

    Block block;
    block.header.version = 3;  // BIP66 (height >= 363,725) requires version >= 3
    block.header.time = 1436508000;  // 2015-07-10, around block 364,292
    block.header.bits = 0x1d00ffff;
    block.txs.push_back(std::move(coinbase));
    block.txs.push_back(std::move(tx));
    out.block = SerializeBlock(block);  // also writes the merkle root
    if (out.block.size() > kSyntheticMaxBlockBytes) {
        throw std::invalid_argument("synthetic legacy tx: the block has " + std::to_string(out.block.size()) +
                                    " bytes, over the " + std::to_string(kSyntheticMaxBlockBytes) + "-byte limit");
    }
    const Block parsed = ParseBlock(out.block.data(), out.block.size());
    out.hash_hex = parsed.hash_hex;
    out.tx_bytes = parsed.txs[1].size;
    return out;
}

}  // namespace ibd::test
