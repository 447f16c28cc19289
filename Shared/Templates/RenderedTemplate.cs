namespace Notifications.Shared.Templates;

/// <summary>A template rendered with one notification's data.</summary>
/// <param name="Subject">The subject line.</param>
/// <param name="Text">The plain-text body, if the template has one.</param>
/// <param name="Html">The HTML body (values HTML-encoded), if the template has one.</param>
public sealed record RenderedTemplate(string Subject, string? Text, string? Html);
