using System.Text.Json.Serialization;
using Notifications.Shared.Contract;

namespace Notifications.Shared.Data;

/// <summary>One outbox row as the producer claims it.</summary>
public sealed class OutboxRow
{
    /// <summary>The notification id.</summary>
    public long Id { get; init; }

    /// <summary>The recipient address.</summary>
    public string? Recipient { get; init; }

    /// <summary>The subject line.</summary>
    public string? Subject { get; init; }

    /// <summary>The body.</summary>
    public string? Body { get; init; }

    /// <summary>Whether the body is HTML.</summary>
    public bool IsHtml { get; init; }

    /// <summary>When the row was inserted.</summary>
    public DateTimeOffset CreatedAt { get; init; }

    /// <summary>When the notification stops being worth sending.</summary>
    public DateTimeOffset? ExpiresAt { get; init; }

    /// <summary>
    /// The W3C <c>traceparent</c> of the business request that enqueued it, if stored: the producer's
    /// publish span continues that trace. Unvalidated (any app may write the column).
    /// </summary>
    public string? TraceParent { get; init; }

    /// <summary>The column <c>priority</c>: <c>urgent</c>, <c>normal</c> or <c>bulk</c>.</summary>
    public string Priority { get; init; } = "normal";

    /// <summary>The column <c>not_before</c>: null, or the instant before which it was not to be sent.</summary>
    public DateTimeOffset? NotBefore { get; init; }

    /// <summary>The columns <c>reply_to</c>, <c>cc</c>, <c>bcc</c> (address lists) and <c>headers</c> (a JSON object), unvalidated.</summary>
    public string? ReplyTo { get; init; }

    /// <inheritdoc cref="ReplyTo"/>
    public string? Cc { get; init; }

    /// <inheritdoc cref="ReplyTo"/>
    public string? Bcc { get; init; }

    /// <inheritdoc cref="ReplyTo"/>
    public string? Headers { get; init; }

    /// <summary>The column <c>template_name</c>: set for a templated row (then no subject or body).</summary>
    public string? TemplateName { get; init; }

    /// <summary>The column <c>template_data</c>: the template's data, a JSON object as text.</summary>
    public string? TemplateData { get; init; }

    /// <summary>The column <c>locale</c>: the wanted locale of a templated row, if any.</summary>
    public string? Locale { get; init; }

    /// <summary>The column <c>channel</c>: <c>email</c>, <c>webhook</c> or <c>push</c>.</summary>
    public string Channel { get; init; } = NotificationChannels.Email;

    /// <summary>The column <c>data</c>: JSON text (a webhook's payload data, a push notification's custom data), unvalidated.</summary>
    public string? Data { get; init; }

    /// <summary>The column <c>html_body</c>: the HTML alternative of a prepared mail with a plain-text body.</summary>
    public string? HtmlBody { get; init; }

    /// <summary>The column <c>attachment_count</c>: how many files the table <c>attachment</c> holds for it (null: none).</summary>
    public short? AttachmentCount { get; init; }

    /// <summary>The column <c>from_name</c>: the From header's display name for this row (null: Smtp:From's).</summary>
    public string? FromName { get; init; }

    /// <summary>The column <c>category</c>: what the row is about, for the subscribers' preferences (null: none).</summary>
    public string? Category { get; init; }

    /// <summary>
    /// The column <c>channels</c>: an audience row's (<see cref="Channel"/> <c>audience</c>) channels, <c>email</c>, <c>push</c>
    /// or <c>email,push</c>; null on every other row.
    /// </summary>
    public string? Channels { get; init; }

    /// <summary>A fan-out's push delivery under <c>live&gt;push</c>: the live delivery it backs up (not a column).</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public long? LiveFallbackOf { get; init; }

    /// <summary>An audience row of channels <c>live</c> alone to a topic, published as one broadcast (not a column).</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public bool? LiveBroadcast { get; init; }

    /// <summary>Whether the row is for a subscriber or a topic: the fan-out stage's, not a consumer's.</summary>
    [JsonIgnore]
    public bool IsAudience => Channel == AudienceAddress.Channel;

    /// <summary>Whether the row travels in the urgent lane.</summary>
    [JsonIgnore]
    public bool IsUrgent => Priority == "urgent";

    /// <summary>The row as a wire message.</summary>
    public NotificationMessage ToMessage() => new(Id, Recipient, Subject, Body, IsHtml, CreatedAt, ExpiresAt)
    {
        ReplyTo = ReplyTo, Cc = Cc, Bcc = Bcc, Headers = Headers, TemplateName = TemplateName, TemplateData = TemplateData, Locale = Locale,
        // Only bulk travels with its priority (the consumer's one use of it): normal and urgent mail keep their bytes.
        Priority = Priority == "bulk" ? Priority : null,
        // Email travels without its channel, as before channels existed.
        Channel = Channel == NotificationChannels.Email ? null : Channel,
        Data = Data,
        HtmlBody = HtmlBody,
        Attachments = AttachmentCount,
        FromName = FromName,
        Category = Category,
        LiveFallbackOf = LiveFallbackOf,
        LiveBroadcast = LiveBroadcast,
    };
}
