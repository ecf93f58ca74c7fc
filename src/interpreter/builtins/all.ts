// Loads every builtin group into the registry (each module registers itself when imported).
import './core.js';
import './math.js';
import './string.js';
import './array.js';
import './map.js';
import './time.js';
import './bits.js';
