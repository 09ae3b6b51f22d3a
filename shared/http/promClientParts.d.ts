// The types of promClientParts.js: prom-client's own declarations of the classes it re-exports.
export { Counter, Gauge, Registry } from "prom-client";
