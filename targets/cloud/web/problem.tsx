// What went wrong, as the server said it, where the person is looking; nothing when all is well.
export function Problem(props: { text: string }) {
  return props.text ? (
    <p class="problem" role="alert">
      {props.text}
    </p>
  ) : null;
}
