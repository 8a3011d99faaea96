import { useLingui } from "@lingui/react/macro";
import { useSnapshot } from "valtio";
import type { LevelGate } from "../../protocol";
import { Modal } from "../api-keys";
import * as shell from "../shell/shell.css";
import { closeLevelGate, LEVEL_NAMES, levelGate } from "./level-gate";

/** The required-verification dialog: which level an action needs, what the account has, and where to ask. */
export function RequiredLevelDialog() {
  const { t, i18n } = useLingui();
  const { gate } = useSnapshot(levelGate);
  const needed = gate ? i18n._(LEVEL_NAMES[gate.needed]) : "";
  const current = gate ? i18n._(LEVEL_NAMES[gate.current as LevelGate["needed"]] ?? LEVEL_NAMES[0]) : "";
  const action = (g: LevelGate): string => {
    switch (g.action) {
      case "deposit":
        return t`To deposit, your account needs the ${needed} verification level.`;
      case "withdraw":
        return t`To withdraw, your account needs the ${needed} verification level.`;
      case "margin":
        return t`To trade on margin, your account needs the ${needed} verification level.`;
      default: {
        const never: never = g.action;
        return never;
      }
    }
  };
  return (
    <Modal open={gate !== null} title={t`Verification needed`} onClose={closeLevelGate} testId="level-gate-dialog">
      {gate && (
        <>
          <p>{action(gate)}</p>
          <p>{t`It has ${current} now. Verification takes a few minutes to fill in; we review it and e-mail you.`}</p>
          <div style={{ display: "flex", gap: 8, flexWrap: "wrap" }}>
            <a className={shell.button} href="/account#verification" onClick={closeLevelGate}>
              {t`Get verified`}
            </a>
            <button type="button" className={shell.ghostButton} onClick={closeLevelGate}>
              {t`Not now`}
            </button>
          </div>
        </>
      )}
    </Modal>
  );
}
