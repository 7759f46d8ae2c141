"""check_checkout: a kernel refuses to run one checkout's library from inside another checkout (the cause of B4.3's
verdict differing between two checkouts of one commit: the venv's editable install imported the other's engine)."""
import pytest

from inferopt._paths import check_checkout, enclosing_root, repo_root


def _fake_repo(path):
    path.mkdir(parents=True)
    (path / "dvc.yaml").write_text("stages: {}\n")
    (path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    return path


def test_the_own_checkout_and_folders_outside_any_checkout_pass(tmp_path):
    check_checkout(repo_root())
    check_checkout(repo_root() / "notebooks")
    check_checkout(tmp_path)                              # no repository above: nothing to compare


def test_another_checkout_is_refused_naming_both(tmp_path, monkeypatch):
    monkeypatch.delenv("INFEROPT_ROOT", raising=False)
    other = _fake_repo(tmp_path / "other")
    (other / "notebooks").mkdir()
    assert enclosing_root(other / "notebooks") == other.resolve()
    with pytest.raises(RuntimeError, match="PYTHONPATH") as e:
        check_checkout(other / "notebooks")
    assert str(other.resolve()) in str(e.value) and str(repo_root()) in str(e.value)


def test_an_explicit_root_turns_the_check_off(tmp_path, monkeypatch):
    other = _fake_repo(tmp_path / "other")
    monkeypatch.setenv("INFEROPT_ROOT", str(other))
    check_checkout(other)
