"use client";
import { signOut as nextAuthSignOut } from "next-auth/react";

/**
 * Signs out (the server revokes the session) and goes to the sign-in page of the address the
 * person is using: next-auth's own redirect would name NEXTAUTH_URL's host, which may not be the
 * one in the address bar (a demo opened as 127.0.0.1 or by its LAN address).
 */
export async function signOut(): Promise<void> {
  await nextAuthSignOut({ redirect: false });
  // A full page load: the server renders the next page with the new (or no) session cookie.
  // eslint-disable-next-line @next/next/no-location-assign-relative-destination
  window.location.assign("/signin");
}
