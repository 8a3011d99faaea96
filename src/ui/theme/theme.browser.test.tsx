import { afterEach, describe, expect, it } from "vitest";
import { vars } from "./contract.css";
import { applyTheme, THEME_NAMES, type ThemeChoice } from "./theme";

const root = document.documentElement;

function bodyBackground(choice: ThemeChoice, osDark = true): string {
  applyTheme(root, choice, osDark);
  return getComputedStyle(document.body).backgroundColor;
}

function upDownColours(choice: ThemeChoice): [string, string] {
  applyTheme(root, choice, true);
  const up = document.createElement("span");
  const down = document.createElement("span");
  up.style.color = vars.color.up;
  down.style.color = vars.color.down;
  document.body.append(up, down);
  const colours: [string, string] = [getComputedStyle(up).color, getComputedStyle(down).color];
  up.remove();
  down.remove();
  return colours;
}

describe("themes in the browser", () => {
  afterEach(() => applyTheme(root, { name: "default", mode: "dark", scheme: "default" }, true));

  it("changes the computed page colours between dark and light", () => {
    const dark = bodyBackground({ name: "default", mode: "dark", scheme: "default" });
    const light = bodyBackground({ name: "default", mode: "light", scheme: "default" });
    expect(dark).toBe("rgb(16, 22, 28)");
    expect(light).toBe("rgb(244, 246, 248)");
  });

  it("gives every theme its own palette", () => {
    const backgrounds = THEME_NAMES.map((name) => bodyBackground({ name, mode: "dark", scheme: "default" }));
    expect(new Set(backgrounds).size).toBe(THEME_NAMES.length);
    expect(bodyBackground({ name: "high-contrast", mode: "dark", scheme: "default" })).toBe("rgb(0, 0, 0)");
  });

  it("follows the OS in auto mode", () => {
    const autoDark = bodyBackground({ name: "classic", mode: "auto", scheme: "default" }, true);
    const autoLight = bodyBackground({ name: "classic", mode: "auto", scheme: "default" }, false);
    expect(autoDark).toBe(bodyBackground({ name: "classic", mode: "dark", scheme: "default" }));
    expect(autoLight).toBe(bodyBackground({ name: "classic", mode: "light", scheme: "default" }));
    expect(root.dataset["mode"]).toBe("light");
  });

  it("swaps up and down colours in the red-up scheme", () => {
    const [up, down] = upDownColours({ name: "default", mode: "dark", scheme: "default" });
    expect(up).toBe("rgb(22, 185, 121)");
    expect(down).toBe("rgb(240, 97, 109)");
    const [upRed, downGreen] = upDownColours({ name: "default", mode: "dark", scheme: "red-up" });
    expect(upRed).toBe(down);
    expect(downGreen).toBe(up);
  });

  it("leaves exactly one theme class set after repeated switches", () => {
    for (const name of THEME_NAMES) applyTheme(root, { name, mode: "light", scheme: "red-up" }, true);
    applyTheme(root, { name: "default", mode: "dark", scheme: "default" }, true);
    expect(root.classList.length).toBe(1);
  });
});
