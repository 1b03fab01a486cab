// PCRE2 needs its code-unit width chosen before the header is read; Formulary
// matches UTF-8 bytes, so only the 8-bit library is used.
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
