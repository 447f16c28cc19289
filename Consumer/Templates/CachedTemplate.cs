using Notifications.Shared.Templates;

namespace Notifications.Consumer.Templates;

/// <summary>One locale's newest version of a template: parsed, or why it does not parse.</summary>
internal sealed record CachedTemplate(TemplateVersion Source, CompiledTemplate? Template, string? ParseError);
