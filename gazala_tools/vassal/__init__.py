__all__: tuple[str, ...] = ()  # the submodules are the API
