namespace Notifications.Shared.Templates;

/// <summary>One stored version of a template in one locale (a row of the <c>template</c> table).</summary>
/// <param name="Name">The template's name, as notifications give it.</param>
/// <param name="Locale">Its locale (BCP 47, e.g. <c>pt-BR</c>).</param>
/// <param name="Version">1 for the first <c>put</c> of this name and locale; each later put adds one.</param>
/// <param name="Subject">The subject's Liquid source.</param>
/// <param name="TextBody">The plain-text body's Liquid source, if any.</param>
/// <param name="HtmlBody">The HTML body's Liquid source, if any (at least one body exists).</param>
/// <param name="CreatedAt">When this version was put.</param>
public sealed record TemplateVersion(
    string Name, string Locale, int Version, string Subject, string? TextBody, string? HtmlBody, DateTimeOffset CreatedAt);
