# The card games' notation, for their Python face (engine/cards/state.pyx): the one writer and the
# one parser of positions and views.
from engine.cards.rules cimport LCState

cdef str lc_write(const LCState* s, int viewer, list record, Py_ssize_t start)
cdef str lc_parse(str text, LCState* s, int* seat, int want, bint view)
cdef int lc_decision_text(const void* s, int d, char* out) noexcept nogil
