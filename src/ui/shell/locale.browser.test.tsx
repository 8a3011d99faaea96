import { I18nProvider } from "@lingui/react";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { page } from "vitest/browser";
import { render } from "vitest-browser-react";
import { subscribeKey } from "valtio/utils";
import { activateLocale, i18n } from "../i18n";
import { resetSettings, settings } from "../settings/store";
import { DisplayControls } from "./DisplayControls";

let stop: () => void = () => {};

/** The label of the first option of a select ("Dark" in the mode switcher). */
function firstOption(el: Element): string | null | undefined {
  return (el as HTMLSelectElement).options[0]?.textContent;
}

beforeAll(async () => {
  resetSettings();
  await activateLocale("en");
  stop = subscribeKey(settings, "locale", (l) => void activateLocale(l));
});
afterAll(() => stop());

describe("locale switching", () => {
  it("re-renders the shell controls in the chosen language and sets <html lang>", async () => {
    await render(
      <I18nProvider i18n={i18n}>
        <DisplayControls />
      </I18nProvider>,
    );
    const mode = page.getByTestId("mode-select");
    await expect.poll(() => firstOption(mode.element())).toBe("Dark");
    await page.getByTestId("locale-select").selectOptions("ru");
    await expect.poll(() => firstOption(mode.element())).toBe("Тёмная");
    expect(document.documentElement.lang).toBe("ru");
    await page.getByTestId("locale-select").selectOptions("zh-TW");
    await expect.poll(() => firstOption(mode.element())).toBe("深色");
    await page.getByTestId("locale-select").selectOptions("es-EM");
    await expect.poll(() => firstOption(mode.element())).toBe("Oscuro");
    expect(document.documentElement.lang).toBe("es");
  });

  it("loads each catalog lazily, only when chosen", async () => {
    for (const l of ["tr-TR", "pt-BR", "zh-CN"] as const) {
      await activateLocale(l);
      expect(i18n.locale).toBe(l);
      expect(Object.keys(i18n.messages).length).toBeGreaterThan(50);
    }
  });
});
