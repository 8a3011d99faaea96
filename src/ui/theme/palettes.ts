/**
 * The colours of the five themes in both modes, as plain data so that a Node test can hold every
 * pair of text and background to WCAG AA contrast (themes.css.ts turns them into theme classes).
 * Text sizes in the app are small (11–14 px), so every text pair needs 4.5:1, the normal-text bar.
 * The soft tints are written without spaces: they are values, not words for translation.
 */
export interface Palette {
  bg: string;
  surface: string;
  surfaceRaised: string;
  border: string;
  text: string;
  textMuted: string;
  accent: string;
  accentText: string;
  focus: string;
  danger: string;
  warning: string;
  success: string;
  positive: string;
  negative: string;
  positiveSoft: string;
  negativeSoft: string;
}

export const PALETTES = {
  default: {
    dark: {
      bg: "#10161c",
      surface: "#172029",
      surfaceRaised: "#1f2a35",
      border: "#2b3845",
      text: "#e6edf3",
      textMuted: "#93a4b4",
      accent: "#30a091",
      accentText: "#0b1217",
      focus: "#5cc8ff",
      danger: "#f0616d",
      warning: "#e8b14a",
      success: "#16b979",
      positive: "#16b979",
      negative: "#f0616d",
      positiveSoft: "rgba(22,185,121,0.18)",
      negativeSoft: "rgba(240,97,109,0.18)",
    },
    light: {
      bg: "#f4f6f8",
      surface: "#ffffff",
      surfaceRaised: "#eef1f4",
      border: "#d5dce3",
      text: "#17212b",
      textMuted: "#5a6a79",
      accent: "#1d796c",
      accentText: "#ffffff",
      focus: "#0b6bcb",
      danger: "#c9303e",
      warning: "#916400",
      success: "#0c7c50",
      positive: "#0c7c50",
      negative: "#c9303e",
      positiveSoft: "rgba(12,138,87,0.14)",
      negativeSoft: "rgba(201,48,62,0.14)",
    },
  },
  classic: {
    dark: {
      bg: "#1b262d",
      surface: "#22313a",
      surfaceRaised: "#2a3b45",
      border: "#364955",
      text: "#dfe6ea",
      textMuted: "#92a5b1",
      accent: "#75a7dd",
      accentText: "#0b1217",
      focus: "#8cc4ff",
      danger: "#e58b77",
      warning: "#f0ad4e",
      success: "#5cb85c",
      positive: "#7fbf3f",
      negative: "#e58b77",
      positiveSoft: "rgba(127,191,63,0.18)",
      negativeSoft: "rgba(229,85,65,0.18)",
    },
    light: {
      bg: "#eef2f4",
      surface: "#ffffff",
      surfaceRaised: "#e4eaee",
      border: "#c8d3da",
      text: "#1b262d",
      textMuted: "#566873",
      accent: "#2d6ca2",
      accentText: "#ffffff",
      focus: "#1560bd",
      danger: "#b9372a",
      warning: "#8a5a00",
      success: "#39751d",
      positive: "#39751d",
      negative: "#b9372a",
      positiveSoft: "rgba(61,125,30,0.14)",
      negativeSoft: "rgba(185,55,42,0.14)",
    },
  },
  "high-contrast": {
    dark: {
      bg: "#000000",
      surface: "#000000",
      surfaceRaised: "#111111",
      border: "#ffffff",
      text: "#ffffff",
      textMuted: "#e0e0e0",
      accent: "#ffd400",
      accentText: "#000000",
      focus: "#00e5ff",
      danger: "#ff5c5c",
      warning: "#ffd400",
      success: "#3dff8b",
      positive: "#3dff8b",
      negative: "#ff5c5c",
      positiveSoft: "rgba(61,255,139,0.30)",
      negativeSoft: "rgba(255,92,92,0.30)",
    },
    light: {
      bg: "#ffffff",
      surface: "#ffffff",
      surfaceRaised: "#f0f0f0",
      border: "#000000",
      text: "#000000",
      textMuted: "#1a1a1a",
      accent: "#0033cc",
      accentText: "#ffffff",
      focus: "#b30086",
      danger: "#b00000",
      warning: "#6b4a00",
      success: "#006b2e",
      positive: "#006b2e",
      negative: "#b00000",
      positiveSoft: "rgba(0,107,46,0.20)",
      negativeSoft: "rgba(176,0,0,0.20)",
    },
  },
  // Blue/orange instead of green/red: distinguishable with the common red-green deficiencies.
  colourblind: {
    dark: {
      bg: "#121620",
      surface: "#1a2030",
      surfaceRaised: "#222a3d",
      border: "#323c55",
      text: "#eceff6",
      textMuted: "#9aa5bd",
      accent: "#4f8fff",
      accentText: "#0b1217",
      focus: "#ffd166",
      danger: "#ff8c1a",
      warning: "#ffd166",
      success: "#4f8fff",
      positive: "#4f8fff",
      negative: "#ff8c1a",
      positiveSoft: "rgba(76,141,255,0.20)",
      negativeSoft: "rgba(255,140,26,0.20)",
    },
    light: {
      bg: "#f5f7fb",
      surface: "#ffffff",
      surfaceRaised: "#eaeef6",
      border: "#cdd5e4",
      text: "#141a26",
      textMuted: "#55607a",
      accent: "#1f5fd1",
      accentText: "#ffffff",
      focus: "#a05a00",
      danger: "#a65600",
      warning: "#7a5900",
      success: "#1f5fd1",
      positive: "#1f5fd1",
      negative: "#a65600",
      positiveSoft: "rgba(31,95,209,0.15)",
      negativeSoft: "rgba(184,92,0,0.15)",
    },
  },
  experimental: {
    dark: {
      bg: "#140f1f",
      surface: "#1c1530",
      surfaceRaised: "#261d40",
      border: "#3a2d5c",
      text: "#efeaff",
      textMuted: "#a99cc9",
      accent: "#9d70ff",
      accentText: "#0b1217",
      focus: "#45e0c8",
      danger: "#ff5d8f",
      warning: "#ffc857",
      success: "#45e0a0",
      positive: "#45e0a0",
      negative: "#ff5d8f",
      positiveSoft: "rgba(69,224,160,0.18)",
      negativeSoft: "rgba(255,93,143,0.18)",
    },
    light: {
      bg: "#f7f4ff",
      surface: "#ffffff",
      surfaceRaised: "#eee8ff",
      border: "#d6cbf5",
      text: "#1e1536",
      textMuted: "#5f5482",
      accent: "#6a3fd9",
      accentText: "#ffffff",
      focus: "#007f6e",
      danger: "#c2185b",
      warning: "#8a6100",
      success: "#007850",
      positive: "#007850",
      negative: "#c2185b",
      positiveSoft: "rgba(0,135,90,0.14)",
      negativeSoft: "rgba(194,24,91,0.14)",
    },
  },
} as const satisfies Record<string, { readonly dark: Palette; readonly light: Palette }>;
