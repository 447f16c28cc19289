namespace Notifications.Shared.Templates;

/// <summary>One template name and locale, as <c>admin templates list</c> shows it.</summary>
/// <param name="Name">The template's name.</param>
/// <param name="Locale">The locale.</param>
/// <param name="Version">The newest version, the one rendered.</param>
/// <param name="Versions">How many versions were put.</param>
/// <param name="UpdatedAt">When the newest version was put.</param>
/// <param name="Variables">The newest version's top-level variables, which an enqueue's data must carry; null when it was put
/// before they were recorded (migration 024), so not checked.</param>
public sealed record TemplateListing(string Name, string Locale, int Version, int Versions, DateTimeOffset UpdatedAt, IReadOnlyList<string>? Variables);
