# The card games' notation, for their Python face (engine/cards/state.pyx) and loops that read
# views in C.
from libc.stdint cimport uint8_t

from engine.cards.rules cimport LCState, CardSet

cdef str _pile_letter(int e, int k)
cdef str _format_set(int e, const CardSet* s)
cdef str _format_stack(int e, const uint8_t* cards, int n)
cdef int _set_from_list(int e, list cards, CardSet* out, str field) except -1
cdef str _write_position(const LCState* s, int viewer, list history)
cdef int lc_read_position(str text, LCState* s) except -1
cdef object lc_read_view(str text, LCState* s, int* seat, bint fast, bint raw_history)
cdef int lc_load_view(const char* text, Py_ssize_t n, LCState* s, int* seat, Py_ssize_t* hist_start,
                      Py_ssize_t* hist_len) except -1
