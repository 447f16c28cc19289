using System.CommandLine;
using System.Text.Json;
using Notifications.Shared.Templates;

namespace Notifications.Admin;

/// <summary>
/// <c>templates preview NAME --data JSON [--locale L]</c>: renders a template as the consumer would (same locale
/// fallback, escaping and strict mode) and prints the subject and bodies; sends nothing. Exit 1 with the reason the
/// consumer would dead-letter with: unknown template, a template that does not parse, a missing variable.
/// </summary>
internal static class TemplatePreview
{
    public static Command Create(Func<ParseResult, AdminContext> context, AdminConsole console)
    {
        var name = TemplateCommands.NameArgument();
        var data = new Option<string>("--data")
        {
            Description = "The template data: a JSON object, e.g. '{\"order\":{\"number\":42}}'",
            Required = true,
            CustomParser = r =>
            {
                string token = r.Tokens.Single().Value;
                if (!IsObject(token, out string? error))
                {
                    r.AddError($"--data must be a JSON object: {error}");
                }

                return token;
            },
        };
        var locale = new Option<string?>("--locale") { Description = "The wanted locale; falls back as the consumer does (pt-BR, pt, Templates:DefaultLocale, the template's first locale)" };
        var command = new Command("preview", "Render a template with the given data, as the consumer would, and print the subject, text and HTML; sends nothing") { name, data, locale };
        command.SetAction(async (parsed, ct) =>
        {
            await using var admin = context(parsed);
            var (chosen, rendered) = await RenderAsync(admin, parsed.GetValue(name)!, parsed.GetValue(data)!, parsed.GetValue(locale), ct);
            await WriteAsync(console.Out, chosen, rendered);
            return ExitCodes.Success;
        });
        return command;
    }

    /// <summary>
    /// The newest version of <paramref name="templateName"/> in the locale the consumer would choose for <paramref name="locale"/>,
    /// rendered with <paramref name="data"/> (a JSON object) as the consumer renders it; the command and the console's templates
    /// page both call this. An <see cref="AdminException"/> with the reason the consumer would dead-letter with.
    /// </summary>
    public static async Task<(TemplateVersion Chosen, RenderedTemplate Rendered)> RenderAsync(
        AdminContext admin, string templateName, string data, string? locale, CancellationToken cancellationToken)
    {
        if (!IsObject(data, out string? invalid))
        {
            throw new AdminException($"the data must be a JSON object: {invalid}", ExitCodes.Usage);
        }

        var locales = await admin.DatabaseAsync(() => admin.Templates.GetNewestAsync(templateName, cancellationToken));
        var chosen = LocaleFallback.Choose(locales, v => v.Locale, locale, admin.DefaultLocale)
            ?? throw new AdminException($"unknown template: '{templateName}' (no version in any locale)", ExitCodes.Failed);
        try
        {
            return (chosen, await admin.Renderer.RenderAsync(admin.Renderer.Compile(chosen), data, cancellationToken));
        }
        catch (TemplateException ex)
        {
            throw new AdminException(ex.Message, ExitCodes.Failed, ex);
        }
    }

    private static async Task WriteAsync(TextWriter output, TemplateVersion chosen, RenderedTemplate rendered)
    {
        await output.WriteLineAsync(FormattableString.Invariant($"Template '{chosen.Name}' ({chosen.Locale}, version {chosen.Version})"));
        await output.WriteLineAsync($"Subject: {rendered.Subject}");
        await output.WriteLineAsync("--- text ---");
        await output.WriteLineAsync(rendered.Text ?? "(none)");
        await output.WriteLineAsync("--- html ---");
        await output.WriteLineAsync(rendered.Html ?? "(none)");
    }

    private static bool IsObject(string json, out string? error)
    {
        try
        {
            using var document = JsonDocument.Parse(json);
            error = document.RootElement.ValueKind == JsonValueKind.Object ? null : $"it is {document.RootElement.ValueKind}";
        }
        catch (JsonException ex)
        {
            error = ex.Message;
        }

        return error is null;
    }
}
