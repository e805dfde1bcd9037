/**
 * Light/dark theme: the choice is stored in localStorage and applied as a `dark` class on <html>.
 * `themeScript` runs inline in <head> before the first paint, so a dark-mode user never sees a
 * white flash; without a stored choice it follows the operating system.
 */
export type Theme = "light" | "dark";

const THEME_STORAGE_KEY = "plantdesk-theme";

export const themeScript = `(function(){try{var s=localStorage.getItem(${JSON.stringify(THEME_STORAGE_KEY)});var d=s?s==="dark":window.matchMedia("(prefers-color-scheme: dark)").matches;var e=document.documentElement;e.classList.toggle("dark",d);e.style.colorScheme=d?"dark":"light"}catch(_){}})();`;

export function applyTheme(theme: Theme): void {
  const root = document.documentElement;
  root.classList.toggle("dark", theme === "dark");
  root.style.colorScheme = theme;
  try {
    localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Private mode or storage disabled: the theme still applies for this page.
  }
}

export function currentTheme(): Theme {
  return document.documentElement.classList.contains("dark") ? "dark" : "light";
}
