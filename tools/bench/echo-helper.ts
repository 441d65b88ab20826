// The smallest benchmark helper (common.ts `serve`): answers `echo` with its parameters. Used by child.test.ts.
import { serve } from './common.js';

serve({ echo: (params: unknown) => params });
