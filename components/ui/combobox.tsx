"use client";
/**
 * A searchable picker (WAI-ARIA combobox with a listbox popup): type to narrow, arrows to move,
 * Enter to choose, Escape to close. For lists of a few hundred entries (assets, parts) held in
 * memory; it shows the first 50 matches so typing stays instant.
 */
import { useId, useMemo, useRef, useState } from "react";
import { cn } from "./cn";
import { controlClasses } from "./field";

interface ComboOption {
  value: string;
  label: string;
  /** Extra text that is searched and shown dimmed (serial number, location…). */
  detail?: string;
}

const MAX_SHOWN = 50;

export function Combobox({
  label,
  options,
  value,
  onChange,
  placeholder = "Search…",
  isLoading,
  error,
  hint,
  allowClear = true,
  className,
}: {
  label: string;
  options: readonly ComboOption[];
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
  isLoading?: boolean;
  error?: string;
  hint?: string;
  allowClear?: boolean;
  className?: string;
}) {
  const id = useId();
  const listId = `${id}-list`;
  const [text, setText] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);

  const selected = options.find((option) => option.value === value);
  const shownText = text ?? (selected ? selected.label : value);

  const matches = useMemo(() => {
    const needle = (text ?? "").trim().toLowerCase();
    const found = needle
      ? options.filter((option) => `${option.value} ${option.label} ${option.detail ?? ""}`.toLowerCase().includes(needle))
      : options;
    return found.slice(0, MAX_SHOWN);
  }, [options, text]);

  function choose(option: ComboOption | undefined) {
    if (!option) return;
    onChange(option.value);
    setText(null);
    setOpen(false);
  }

  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;

  return (
    <div className={cn("relative flex flex-col gap-1", className)}>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <div className="relative">
        <input
          ref={input}
          id={id}
          role="combobox"
          aria-expanded={open}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={open && matches[active] ? `${id}-opt-${active}` : undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          autoComplete="off"
          placeholder={isLoading ? "Loading…" : placeholder}
          value={shownText}
          onChange={(event) => {
            setText(event.target.value);
            setActive(0);
            setOpen(true);
          }}
          onFocus={() => setOpen(true)}
          onBlur={() => {
            // Let a click on an option land before the list closes.
            setTimeout(() => {
              setOpen(false);
              setText(null);
            }, 120);
          }}
          onKeyDown={(event) => {
            if (event.key === "ArrowDown") {
              event.preventDefault();
              setOpen(true);
              setActive((index) => Math.min(index + 1, matches.length - 1));
            } else if (event.key === "ArrowUp") {
              event.preventDefault();
              setActive((index) => Math.max(index - 1, 0));
            } else if (event.key === "Enter" && open) {
              event.preventDefault();
              choose(matches[active]);
            } else if (event.key === "Escape") {
              setOpen(false);
              setText(null);
            }
          }}
          className={cn(controlClasses, allowClear && value ? "pr-8" : "")}
        />
        {allowClear && value ? (
          <button
            type="button"
            aria-label={`Clear ${label.toLowerCase()}`}
            onClick={() => {
              onChange("");
              setText(null);
              input.current?.focus();
            }}
            className="absolute top-1/2 right-1.5 -translate-y-1/2 rounded p-1 text-fg-muted hover:bg-surface-2 hover:text-fg"
          >
            <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
              <path d="M6 6l12 12M18 6 6 18" />
            </svg>
          </button>
        ) : null}
      </div>
      {open ? (
        <ul
          id={listId}
          role="listbox"
          aria-label={label}
          className="absolute top-full z-30 mt-1 max-h-72 w-full min-w-64 overflow-y-auto rounded-md border border-line bg-surface py-1 shadow-lg"
        >
          {matches.length === 0 ? (
            <li className="px-3 py-2 text-sm text-fg-muted">{isLoading ? "Loading…" : "No match"}</li>
          ) : (
            matches.map((option, index) => (
              <li
                key={option.value}
                id={`${id}-opt-${index}`}
                role="option"
                aria-selected={option.value === value}
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => choose(option)}
                onMouseEnter={() => setActive(index)}
                className={cn("cursor-pointer px-3 py-1.5 text-sm", index === active && "bg-surface-2", option.value === value && "font-semibold")}
              >
                <span className="block truncate">{option.label}</span>
                {option.detail ? <span className="block truncate text-xs text-fg-muted">{option.detail}</span> : null}
              </li>
            ))
          )}
        </ul>
      ) : null}
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-fg-muted">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-xs font-medium text-danger">
          {error}
        </p>
      ) : null}
    </div>
  );
}
