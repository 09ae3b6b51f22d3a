/** The history endpoint always covers this many blocks: the specification's "previous 500 blocks". */
export const HISTORY_BLOCKS = 500;
