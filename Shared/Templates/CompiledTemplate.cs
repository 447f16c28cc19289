using Fluid;

namespace Notifications.Shared.Templates;

/// <summary>A template version parsed once (<see cref="TemplateRenderer.Compile"/>), ready to render any number of times, concurrently.</summary>
public sealed class CompiledTemplate
{
    internal CompiledTemplate(TemplateVersion source, IFluidTemplate subject, IFluidTemplate? text, IFluidTemplate? html)
    {
        Source = source;
        Subject = subject;
        Text = text;
        Html = html;
    }

    /// <summary>The version it was parsed from.</summary>
    public TemplateVersion Source { get; }

    /// <summary>"name (locale, version N)", for reasons and logs.</summary>
    public string Label => LabelOf(Source);

    internal IFluidTemplate Subject { get; }

    // Version 0: not stored yet (admin templates put checks before storing).
    internal static string LabelOf(TemplateVersion source) =>
        $"'{source.Name}' ({source.Locale}, {(source.Version > 0 ? $"version {source.Version}" : "new version")})";

    internal IFluidTemplate? Text { get; }

    internal IFluidTemplate? Html { get; }
}
