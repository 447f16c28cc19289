using Notifications.Consumer.Channels.Email;
using Notifications.Shared.Contract;
using Notifications.Shared.Templates;

namespace Notifications.Consumer.Templates;

/// <summary>
/// Turns a valid notification into the email to send: a prepared one as it is, a templated one rendered with its data
/// in the locale <see cref="LocaleFallback"/> chooses. Anything that keeps a template from rendering is the
/// notification's fault and comes back as the reason to dead-letter it; a database failure throws (retry).
/// </summary>
internal sealed class NotificationRenderer(TemplateCache cache, TemplateRenderer renderer, TemplatesOptions options)
{
    public async Task<(EmailMessage? Email, string? Unrenderable)> PrepareAsync(NotificationMessage message, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(message);
        if (!message.IsTemplated)
        {
            return (Email(message, message.Subject!, message.Body!, message.IsHtml), null);
        }

        var locales = await cache.GetAsync(message.TemplateName!, cancellationToken);
        var chosen = LocaleFallback.Choose(locales, t => t.Source.Locale, message.Locale, options.DefaultLocale);
        if (chosen is null)
        {
            return (null, $"unknown template: '{message.TemplateName}' (no version in any locale)");
        }

        if (chosen.Template is not { } template)
        {
            return (null, chosen.ParseError);
        }

        RenderedTemplate rendered;
        try
        {
            rendered = await renderer.RenderAsync(template, message.TemplateData!, cancellationToken);
        }
        catch (TemplateException ex)
        {
            return (null, ex.Message);
        }

        return Check(message, template, rendered) is { } invalid
            ? (null, invalid)
            : (ToEmail(message, rendered), null);
    }

    // What was rendered must pass the rules a prepared notification passes (a subject without line breaks, the length limits).
    private static string? Check(NotificationMessage message, CompiledTemplate template, RenderedTemplate rendered)
    {
        var prepared = message with { TemplateName = null, TemplateData = null, Locale = null, Subject = rendered.Subject };
        string? invalid = NotificationValidator.Validate(prepared with { Body = rendered.Text ?? rendered.Html })
            ?? (rendered.Text is not null && rendered.Html is not null ? NotificationValidator.Validate(prepared with { Body = rendered.Html }) : null);
        return invalid is null ? null : $"template {template.Label} rendered an {invalid}";
    }

    private static EmailMessage ToEmail(NotificationMessage message, RenderedTemplate rendered) => rendered.Text is { } text
        ? Email(message, rendered.Subject, text, isHtml: false) with { HtmlBody = rendered.Html }
        : Email(message, rendered.Subject, rendered.Html!, isHtml: true);

    private static EmailMessage Email(NotificationMessage message, string subject, string body, bool isHtml) =>
        new(message.Id, message.Recipient!, subject, body, isHtml, message.CreatedAt)
        {
            ReplyTo = message.ReplyTo, Cc = message.Cc, Bcc = message.Bcc, Headers = message.Headers, HtmlBody = message.HtmlBody,
            FromName = message.FromName,
        };
}
