"use client";

import { useState } from "react";
import { errorMessage } from "@/lib/client/api";
import { downloadText } from "@/lib/client/csv";
import { Button } from "./button";

/**
 * Downloads a CSV built on demand: `build` fetches every page of the current filter (not only the
 * visible one) and renders the text. Progress and failures are announced in place.
 */
export function CsvButton({
  filename,
  build,
  label = "Download CSV",
}: {
  filename: string;
  build: (onProgress: (done: number, total: number) => void) => Promise<string>;
  label?: string;
}) {
  const [state, setState] = useState<{ busy: boolean; progress?: string; error?: string }>({ busy: false });

  async function run() {
    setState({ busy: true });
    try {
      const text = await build((done, total) => setState({ busy: true, progress: total > 1 ? `${done}/${total}` : undefined }));
      downloadText(filename, text);
      setState({ busy: false });
    } catch (error) {
      setState({ busy: false, error: errorMessage(error) });
    }
  }

  return (
    <span className="inline-flex items-center gap-2">
      <Button size="sm" onClick={() => void run()} disabled={state.busy} aria-busy={state.busy}>
        <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="2">
          <path d="M12 4v11m0 0-4-4m4 4 4-4M5 19h14" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        {state.busy ? `Preparing${state.progress ? ` ${state.progress}` : ""}…` : label}
      </Button>
      <span role="status" className="text-xs text-danger">
        {state.error ?? ""}
      </span>
    </span>
  );
}
