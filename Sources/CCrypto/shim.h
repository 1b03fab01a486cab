// Only the digest API of libcrypto is used (SHA-256 for audit chains and
// content-addressed type versions).
#include <openssl/evp.h>
#include <openssl/sha.h>
