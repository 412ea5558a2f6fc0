/** The URL as shown to API keys: credentials an endpoint created before they were refused are never displayed. */
export function displayedWebhookUrl(url: string): string {
  const parsed = URL.parse(url);
  if (!parsed || (!parsed.username && !parsed.password)) return url;
  parsed.username = '';
  parsed.password = '';
  return parsed.toString();
}
