namespace Notifications.Shared.Templates;

/// <summary>
/// A template that cannot be rendered for a notification: unknown, does not parse, data not a JSON object, a missing
/// variable, a render error. The message is the reason kept with the dead letter.
/// </summary>
public sealed class TemplateException : Exception
{
    /// <summary>A failure with its reason.</summary>
    public TemplateException(string message)
        : base(message)
    {
    }

    /// <summary>A failure with its reason and cause.</summary>
    public TemplateException(string message, Exception innerException)
        : base(message, innerException)
    {
    }

    /// <summary>For serializers and analyzers; prefer the other constructors.</summary>
    public TemplateException()
    {
    }
}
