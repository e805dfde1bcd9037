"use client";
/** Copies the page's address (which holds the query, range, plants and view) for sharing. */
import { useState } from "react";
import { Button } from "@/components/ui/button";

export function CopyLinkButton() {
  const [status, setStatus] = useState("");

  async function copy() {
    try {
      await navigator.clipboard.writeText(window.location.href);
      setStatus("Link copied");
    } catch {
      // No clipboard (an insecure origin, a refused permission): show the address to copy by hand.
      window.prompt("Copy this link", window.location.href);
      setStatus("");
    }
    setTimeout(() => setStatus(""), 4000);
  }

  return (
    <span className="inline-flex items-center gap-2">
      <Button size="sm" variant="ghost" onClick={() => void copy()}>
        <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
          <path d="M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1" />
        </svg>
        Copy link
      </Button>
      <span role="status" className="text-xs text-success" data-testid="copy-status">
        {status}
      </span>
    </span>
  );
}
