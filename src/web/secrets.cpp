#include "web/secrets.h"

#include <sodium.h>

#include <vector>

namespace yard::web {
namespace {

std::string hex(const unsigned char* bytes, std::size_t n) {
  std::string out(n * 2 + 1, '\0');
  sodium_bin2hex(out.data(), out.size(), bytes, n);
  out.pop_back();
  return out;
}

}  // namespace

Status init_secrets() {
  if (sodium_init() < 0) return Error{"libsodium could not start (no source of random bytes?)", ErrorKind::Internal};
  return {};
}

Result<std::string> hash_password(std::string_view password) {
  char out[crypto_pwhash_STRBYTES];
  if (crypto_pwhash_str(out, password.data(), password.size(), crypto_pwhash_OPSLIMIT_INTERACTIVE,
                        crypto_pwhash_MEMLIMIT_INTERACTIVE) != 0)
    return Error{"hashing the password ran out of memory", ErrorKind::Unavailable};
  return std::string(out);
}

bool password_matches(const std::string& stored_hash, std::string_view password) {
  if (stored_hash.empty() || stored_hash.size() >= crypto_pwhash_STRBYTES) return false;
  return crypto_pwhash_str_verify(stored_hash.c_str(), password.data(), password.size()) == 0;
}

std::string random_token() {
  unsigned char bytes[32];
  randombytes_buf(bytes, sizeof bytes);
  return hex(bytes, sizeof bytes);
}

std::string token_digest(std::string_view token) {
  unsigned char out[32];
  crypto_generichash(out, sizeof out, reinterpret_cast<const unsigned char*>(token.data()), token.size(), nullptr, 0);
  return hex(out, sizeof out);
}

std::string keyed_digest(std::string_view key_hex, std::string_view message) {
  std::vector<unsigned char> key(crypto_auth_KEYBYTES, 0);
  std::size_t n = 0;
  sodium_hex2bin(key.data(), key.size(), key_hex.data(), key_hex.size(), nullptr, &n, nullptr);
  unsigned char out[crypto_auth_BYTES];
  crypto_auth(out, reinterpret_cast<const unsigned char*>(message.data()), message.size(), key.data());
  return hex(out, sizeof out);
}

bool same_secret(std::string_view a, std::string_view b) {
  return a.size() == b.size() && sodium_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace yard::web
