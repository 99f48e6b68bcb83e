// Core's compressed transaction outputs (compressor.h, compressor.cpp): the form the undo data
// (rev?????.dat, undo/block_undo.h) and the coins database keep a CTxOut in.
//
//   TxOutCompression = VARINT(CompressAmount(nValue)) | ScriptCompression(scriptPubKey)
//   ScriptCompression: VARINT(nSize), then
//     nSize 0     20 bytes: P2PKH's key hash    -> 76 a9 14 <20> 88 ac
//     nSize 1     20 bytes: P2SH's script hash  -> a9 14 <20> 87
//     nSize 2, 3  32 bytes: a compressed key's x, its prefix nSize       -> 21 <02|03 x> ac
//     nSize 4, 5  32 bytes: an uncompressed key's x, its y odd when 5    -> 41 <04 x y> ac
//     nSize >= 6  nSize - 6 bytes of script as they are (a script over MAX_SCRIPT_SIZE, 10,000
//                 bytes, is read back as the single byte OP_RETURN, its bytes skipped)
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "primitives/serialize.h"
#include "primitives/transaction.h"

namespace ibd {

/** Special script kinds: ScriptCompression's nSize below this is one of the forms above. */
inline constexpr unsigned kSpecialScripts = 6;

/** Core's CompressAmount: an amount in satoshis as a smaller integer, trailing decimal zeros
 *  folded into an exponent: 0 -> 0; otherwise with n = m * 10^e (e <= 9 as large as it goes),
 *  e < 9: 1 + 10 * (9 * (m / 10) + (m % 10) - 1) + e; e == 9: 1 + 10 * (m - 1) + 9.
 *  Core's vectors (test/compress_tests.cpp): 0 -> 0x0, 1 -> 0x1, 1,000,000 -> 0x7,
 *  100,000,000 -> 0x9, 50 BTC -> 0x32, 21,000,000 BTC -> 0x1406f40. */
uint64_t CompressAmount(uint64_t amount);

/** Core's DecompressAmount: the inverse of CompressAmount on its image; any uint64 is accepted
 *  (the arithmetic wraps as Core's does for values no CompressAmount produces). */
uint64_t DecompressAmount(uint64_t x);

/** Core's GetSpecialScriptSize: the bytes after a special nSize (0-5): 20 or 32. */
size_t SpecialScriptSize(unsigned n_size);

/** Core's CompressScript: the special form (nSize byte + 20 or 32 bytes) of a P2PKH, P2SH or
 *  P2PK script, in `out`, and true; false for any other script, and for an uncompressed P2PK
 *  whose key is not a point on the curve (CPubKey::IsFullyValid, which libsecp256k1's
 *  secp256k1_ec_pubkey_parse decides). */
bool CompressScript(const std::vector<uint8_t>& script, std::vector<uint8_t>& out);

/** Core's DecompressScript: the script of special form `n_size` (0-5) from its 20 or 32 bytes
 *  at `in`. False, `script` left empty, when n_size is 4 or 5 and the x coordinate is not on
 *  the curve (CPubKey::Decompress). */
bool DecompressScript(std::vector<uint8_t>& script, unsigned n_size, const uint8_t* in);

/** Reads a TxOutCompression (layout above) into a TxOut. Throws Error at the byte offset for
 *  a truncated or oversized VARINT or script, and for a special P2PK whose x is not on the
 *  curve ("compressed public key x is not on the curve"), which no CompressScript writes. A
 *  decompressed value above the int64 range is kept as Core keeps it (a verdict for the block
 *  rules, not a read error). */
TxOut ReadCompressedTxOut(Reader& r);

/** Appends the TxOutCompression of `out` (the writer Core's undo data uses). */
void WriteCompressedTxOut(std::vector<uint8_t>& sink, const TxOut& out);

}  // namespace ibd
