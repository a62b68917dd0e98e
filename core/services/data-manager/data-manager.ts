// The data manager service API: captures data from the machine's resources and syncs it to the
// cloud. `sync` uploads whatever has been captured and not yet uploaded.
import type { Commandable, Extra } from "../../components/index.js";

export interface DataManager extends Commandable {
  sync(extra?: Extra): Promise<void>;
}
