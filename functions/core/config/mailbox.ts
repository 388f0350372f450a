/**
 * The address inside `email.from` (`Reports <r@example.com>`): SES sends from it and the stack grants
 * `ses:SendRawEmail` on its identity, so the Finalize mailer and the CDK stack read it the same way.
 */
export function bareAddress(mailbox: string): string {
  return (/<([^<>]+)>\s*$/.exec(mailbox)?.[1] ?? mailbox).trim();
}
