/**
 * A real SMTP server (npm `smtp-server`) on a free loopback port that keeps every mail it receives:
 * the tests' peer for what the dashboard e-mails (monitors, contact points). Start it inside
 * `vi.hoisted`, before the configuration is read, so SMTP_URL can name its port.
 */
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  to: string[];
  /** The message as sent: headers and body. */
  body: string;
}

/** `port` 0: any free port; a fixed one for a server started before the test (e2e/alerting.spec.ts). */
export async function startSmtpSink(port = 0): Promise<{ smtp: SMTPServer; mails: ReceivedMail[]; url: string }> {
  const mails: ReceivedMail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, session, callback) {
      let body = "";
      stream.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
      stream.on("end", () => {
        mails.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), body });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(port, "127.0.0.1", resolve));
  return { smtp, mails, url: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}` };
}
