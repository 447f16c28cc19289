using System.Text.Encodings.Web;
using System.Text.Unicode;
using Fluid;

namespace Notifications.Shared.Templates;

/// <summary>
/// Parses and renders Liquid templates (Fluid). The subject and text body are written as they are; the HTML body
/// HTML-encodes every value (<c>&lt;</c>, <c>&amp;</c>, quotes) unless the template says <c>| raw</c>, and leaves
/// non-ASCII letters alone (the message is UTF-8). Strict: a variable missing from the data is an error, never
/// empty text (<see cref="TemplateDataObject"/>). Thread-safe: one instance serves every handler.
/// </summary>
public sealed class TemplateRenderer
{
    private static readonly HtmlEncoder Html = HtmlEncoder.Create(UnicodeRanges.All);
    private readonly FluidParser _parser = new();
    // Unknown filters are errors as missing variables are; times in UTC whatever the host's zone; and a bound on the
    // statements one render executes, so a loop over a huge range ends in a render error, not a handler spinning.
    private readonly TemplateOptions _options = new() { StrictFilters = true, TimeZone = TimeZoneInfo.Utc, MaxSteps = MaxSteps };

    /// <summary>The most statements one part's render may execute (Fluid's <c>MaxSteps</c>).</summary>
    public const int MaxSteps = 100_000;

    /// <summary>Parses <paramref name="source"/>'s subject and bodies; throws <see cref="TemplateException"/> when one does not parse.</summary>
    public CompiledTemplate Compile(TemplateVersion source)
    {
        ArgumentNullException.ThrowIfNull(source);
        string label = CompiledTemplate.LabelOf(source);
        return new CompiledTemplate(
            source,
            Parse(source.Subject, label, "subject")!,
            Parse(source.TextBody, label, "text body"),
            Parse(source.HtmlBody, label, "HTML body"));
    }

    /// <summary>
    /// Renders <paramref name="template"/> with <paramref name="data"/> (a JSON object as text). Throws
    /// <see cref="TemplateException"/> when the data is not a JSON object, a variable is missing or rendering fails.
    /// </summary>
    public async Task<RenderedTemplate> RenderAsync(CompiledTemplate template, string data, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(template);
        ArgumentNullException.ThrowIfNull(data);
        var model = TemplateData.Parse(data, out var document);
        using (document)
        {
            string subject = await RenderPartAsync(template, template.Subject, "subject", model, NullEncoder.Default, cancellationToken);
            string? text = template.Text is { } t ? await RenderPartAsync(template, t, "text body", model, NullEncoder.Default, cancellationToken) : null;
            string? html = template.Html is { } h ? await RenderPartAsync(template, h, "HTML body", model, Html, cancellationToken) : null;
            return new RenderedTemplate(subject, text, html);
        }
    }

    private IFluidTemplate? Parse(string? source, string label, string part)
    {
        if (source is null)
        {
            return null;
        }

        if (_parser.TryParse(source, out var parsed, out string error))
        {
            return parsed;
        }

        // Fluid appends the template's source after the position ("at (3:14)"): the position is enough for a reason.
        int echo = error.IndexOf("Source:", StringComparison.Ordinal);
        throw new TemplateException($"template {label} does not parse: {part}: {(echo > 0 ? error[..echo] : error).Trim().ReplaceLineEndings(" ")}");
    }

    private async Task<string> RenderPartAsync(
        CompiledTemplate template, IFluidTemplate part, string name, TemplateDataObject model, TextEncoder encoder, CancellationToken cancellationToken)
    {
        cancellationToken.ThrowIfCancellationRequested();
        var context = new TemplateContext(model, _options);
        try
        {
            return await part.RenderAsync(context, encoder);
        }
        catch (TemplateException ex)
        {
            throw new TemplateException($"template {template.Label}: {name}: {ex.Message}", ex);
        }
        catch (InvalidOperationException ex) when (ex.Message.Contains("maximum level of recursion", StringComparison.Ordinal))
        {
            // Fluid 2.41 says "recursion" (and "cyclic include") for its step limit as well.
            throw new TemplateException($"template {template.Label}: {name}: render failed: more than {MaxSteps} steps or nested too deep", ex);
        }
        catch (Exception ex) when (ex is not OperationCanceledException and not OutOfMemoryException)
        {
            // Fluid's own errors (an unknown filter, a bad argument) and the .NET ones filters throw (divided_by: 0).
            throw new TemplateException($"template {template.Label}: {name}: render failed: {ex.GetType().Name}: {ex.Message}", ex);
        }
    }
}
