using System.CommandLine;
using System.Globalization;
using Notifications.Shared.Templates;

namespace Notifications.Admin;

/// <summary>
/// <c>templates put | list | preview</c>: the <c>template</c> table the consumer renders templated notifications from.
/// A put adds a version (the consumers pick it up within <c>Templates:RefreshInterval</c>); it is refused, exit 1,
/// when the template does not parse, so a broken template never reaches the table through this tool. A put records the
/// variables the version uses (<see cref="TemplateVariables"/>), which the client checks a templated enqueue's data against.
/// </summary>
internal static class TemplateCommands
{
    public static Command Create(Func<ParseResult, AdminContext> context, AdminConsole console)
    {
        var command = new Command("templates", "Notification templates (Liquid): add a version, list them, render one without sending");
        command.Subcommands.Add(Put(context, console));
        command.Subcommands.Add(List(context, console));
        command.Subcommands.Add(TemplatePreview.Create(context, console));
        return command;
    }

    private static Command Put(Func<ParseResult, AdminContext> context, AdminConsole console)
    {
        var name = NameArgument();
        var locale = new Option<string>("--locale") { Description = "The locale of this version (BCP 47, e.g. en, pt, pt-BR)", Required = true };
        var subject = new Option<string>("--subject") { Description = "The subject line's Liquid source, e.g. \"Order {{ order.number }} confirmed\"", Required = true };
        var text = new Option<FileInfo>("--text") { Description = "File holding the plain-text body's Liquid source (UTF-8)" };
        var html = new Option<FileInfo>("--html") { Description = "File holding the HTML body's Liquid source (UTF-8); values are HTML-encoded when rendered" };
        text.AcceptExistingOnly();
        html.AcceptExistingOnly();
        var command = new Command("put",
            "Add a new version of a template in one locale (the newest version is the one rendered); at least one of --text and --html. "
            + "Records the top-level variables it uses (loop variables, assign and capture left out): the client refuses an enqueue whose data lacks one")
        {
            name, locale, subject, text, html,
        };
        command.Validators.Add(r =>
        {
            if (r.GetResult(text) is null && r.GetResult(html) is null)
            {
                r.AddError("give a body: --text FILE, --html FILE or both");
            }
        });
        command.SetAction(async (parsed, ct) =>
        {
            await using var admin = context(parsed);
            string templateName = parsed.GetValue(name)!, templateLocale = parsed.GetValue(locale)!, subjectSource = parsed.GetValue(subject)!;
            string? textSource = parsed.GetValue(text) is { } t ? await File.ReadAllTextAsync(t.FullName, ct) : null;
            string? htmlSource = parsed.GetValue(html) is { } h ? await File.ReadAllTextAsync(h.FullName, ct) : null;
            IReadOnlyList<string> variables;
            try
            {
                variables = TemplateVariables.Of(
                    admin.Renderer.Compile(new TemplateVersion(templateName, templateLocale, 0, subjectSource, textSource, htmlSource, DateTimeOffset.UtcNow)));
            }
            catch (TemplateException ex)
            {
                throw new AdminException($"not stored: {ex.Message}", ExitCodes.Failed, ex);
            }

            int version = await admin.DatabaseAsync(() => admin.Templates.PutAsync(
                templateName, templateLocale, subjectSource, textSource, htmlSource, TemplateVariables.Column(variables), ct));
            await console.Out.WriteLineAsync(FormattableString.Invariant(
                $"Template '{templateName}' ({templateLocale}): version {version} stored; consumers render it within their refresh interval (Templates:RefreshInterval, 10 s by default)"));
            await console.Out.WriteLineAsync(variables.Count == 0
                ? "Variables: none"
                : $"Variables: {string.Join(", ", variables)} (an enqueue whose data lacks one is refused)");
            return ExitCodes.Success;
        });
        return command;
    }

    private static Command List(Func<ParseResult, AdminContext> context, AdminConsole console)
    {
        var command = new Command("list", "List every template and locale: the newest version (the one rendered), how many versions, when it was put, the variables an enqueue's data must carry");
        command.SetAction(async (parsed, ct) =>
        {
            await using var admin = context(parsed);
            var templates = await admin.DatabaseAsync(() => admin.Templates.ListAsync(ct));
            await console.Out.WriteLineAsync(FormattableString.Invariant($"{templates.Count} template locale(s)"));
            if (templates.Count == 0)
            {
                return ExitCodes.Success;
            }

            int width = Math.Max(4, templates.Max(t => t.Name.Length));
            await console.Out.WriteLineAsync($"{"name".PadRight(width)}  locale      version  versions  updated (UTC)        variables");
            foreach (var t in templates)
            {
                await console.Out.WriteLineAsync(FormattableString.Invariant(
                    $"{t.Name.PadRight(width)}  {t.Locale,-10}  {t.Version,7}  {t.Versions,8}  {t.UpdatedAt.ToUniversalTime().ToString("yyyy-MM-dd HH:mm:ss", CultureInfo.InvariantCulture)}  {Variables(t.Variables)}"));
            }

            return ExitCodes.Success;
        });
        return command;
    }

    // The newest version's variables; a version put before they were recorded (migration 024) is not checked at enqueue.
    private static string Variables(IReadOnlyList<string>? variables) => variables switch
    {
        null => "(not recorded: not checked at enqueue)",
        { Count: 0 } => "none",
        _ => string.Join(", ", variables),
    };

    internal static Argument<string> NameArgument() => new("name")
    {
        Description = "The template's name, as notifications give it (NewNotification.FromTemplate)",
        CustomParser = r =>
        {
            string token = r.Tokens.Single().Value;
            if (string.IsNullOrWhiteSpace(token) || token.Length > 200)
            {
                r.AddError("name must be 1 to 200 characters");
            }

            return token;
        },
    };
}
