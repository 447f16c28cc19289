namespace Notifications.Client;

/// <summary>
/// A person notifications may be addressed to (docs/audiences.md), by the app's own user id.
/// </summary>
/// <param name="Id">The app's user id: 1-128 letters, digits, '.', '_', ':', '@', '+', '=' or '-', starting with a letter or digit.</param>
/// <param name="Locale">The language templates are rendered in (BCP 47: en, pt-BR).</param>
/// <param name="TimeZone">An IANA time zone id (Europe/Lisbon), or null.</param>
public sealed record Subscriber(string Id, string Locale = "en", string? TimeZone = null);
