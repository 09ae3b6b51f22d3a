// The page's CSP forbids eval (shared/http/dashboardCsp.ts). Zod, which reads the API's answers and checks the
// settings page's fields, would otherwise try `new Function` as each object schema is made, to compile a faster
// parser: the attempt fails and Chromium reports it as a CSP violation. Imported first by main.tsx, before any module
// that makes a schema, so that none tries.
import { z } from "zod";

z.config({ jitless: true });
